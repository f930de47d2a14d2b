// Package deadletter writes Event Grid basic-topic dead letters the way the
// cloud does: one blob per given-up batch, named
// <SUBSCRIPTION-NAME>/<yyyy>/<M>/<d>/<H>/<guid>.json in the subscription's
// container, holding a JSON array of records in the shape EG-23 gives for the
// event's schema; written 5 minutes after the give-up (EG-21) and retried
// while the storage is unavailable, for up to 4 hours (EG-22).
//
// Records are built from the event as it was published and the facts of its
// last attempt, never from delivery headers, so custom delivery properties,
// secret ones included, can never reach a dead letter (EG-26).
//
// Rule ids are those of docs/behaviour.md.
package deadletter

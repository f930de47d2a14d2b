// Package pattern implements the Amazon EventBridge event-pattern language for GridBridge:
// parsing and validating patterns (with the exact InvalidEventPatternException reasons AWS
// gives), matching one pattern against an event (TestEventPattern), and matching an event
// against many patterns at once (rule evaluation on a bus).
//
// Semantics follow AWS, including the places where AWS differs from its own documentation:
//   - numbers compare by value ([300] matches 300.0 and 3.0e2);
//   - fields are matched array-consistently: two fields of one pattern never match values taken
//     from two different elements of the same array of objects;
//   - "anything-but" matches null and values of other types, but never a missing field;
//   - dotted keys and nested objects name the same field ({"a.b":[..]} is {"a":{"b":[..]}});
//   - when a pattern repeats a key, the last one wins.
//
// Parse compiles one pattern; Pattern.Match tests it against an event. A Matcher holds many
// compiled patterns under opaque ids and returns the ids whose patterns match an event. It
// flattens each event once, reading only the fields some pattern uses, looks the values up in
// per-field indexes (hash maps for exact values, byte tries for prefixes and suffixes, a
// segment tree for numeric ranges) to find candidate patterns, and verifies only those, so the
// cost of a match barely grows with the number of patterns.
package pattern

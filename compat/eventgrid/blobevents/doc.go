// Package blobevents turns what changed in a storage account's blob
// service into Microsoft.Storage.BlobCreated and BlobDeleted events, for
// Event Grid system topics whose source is that account.
//
// Azurite emits no events, so a Watcher lists the account's containers and
// blobs with azblob and compares each listing with the one before: a blob
// that appeared, or whose ETag changed, is BlobCreated; one that vanished
// is BlobDeleted, unless its container vanished too (Azure raises
// BlobDeleted for DeleteBlob only, not for Delete Container). Clients write to Azurite unmodified. What a listing
// cannot know is approximated and documented on Event: the request ids are
// GridBridge's own, api is PutBlob for a created blob and DeleteBlob for a
// deleted one, and several writes of one blob between two scans are one
// event.
//
// Watcher.Scan lists the whole account; Watcher.Poll lists a bounded part of
// it, continuing where the last poll stopped, so a poller's cost does not
// grow with the account.
package blobevents

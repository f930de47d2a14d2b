package resource

import (
	"encoding/json"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
)

// EndpointStorageQueue is the endpointType of a Storage Queue destination.
const EndpointStorageQueue = "StorageQueue"

// Limits of queueMessageTimeToLiveInSeconds: any positive number of
// seconds, or -1 for "never expires" (Azure's rule; 0 and other negatives
// are refused). Left out, the queue service's default applies (7 days).
const (
	QueueMessageTTLInfinite = -1
	maxQueueMessageTTL      = 1<<31 - 1
)

// QueueName is a Storage Queue destination's queueName.
func (d *Destination) QueueName() string {
	var s string
	_ = json.Unmarshal(d.Other["queueName"], &s)
	return s
}

// QueueMessageTTL is queueMessageTimeToLiveInSeconds; ok is false when the
// request left it out.
func (d *Destination) QueueMessageTTL() (seconds int, ok bool) {
	raw, present := d.Other["queueMessageTimeToLiveInSeconds"]
	if !present || string(raw) == "null" {
		return 0, false
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return int(n), true
}

// StorageAccountName is the account an Azure-resource destination's
// resourceId names (…/providers/Microsoft.Storage/storageAccounts/<name>),
// "" when it names none.
func (d *Destination) StorageAccountName() string {
	seg := strings.Split(strings.Trim(d.ResourceID(), "/"), "/")
	for i := 0; i+1 < len(seg); i++ {
		if strings.EqualFold(seg[i], "storageAccounts") {
			return seg[i+1]
		}
	}
	return ""
}

// validateStorageQueue checks what a Storage Queue destination needs: the
// account's resource id, the queue's name by Azure Storage's naming rule,
// and a message time to live Azure accepts.
func (d *Destination) validateStorageQueue() *arm.Error {
	if d.StorageAccountName() == "" {
		return arm.BadRequest("destination.properties.resourceId must be a storage account resource id (/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Storage/storageAccounts/<name>); got '%s'.", d.ResourceID())
	}
	if err := checkQueueName(d.QueueName()); err != nil {
		return err
	}
	raw, present := d.Other["queueMessageTimeToLiveInSeconds"]
	if !present || string(raw) == "null" {
		return nil
	}
	ttl, err := integer("destination.properties.queueMessageTimeToLiveInSeconds", raw)
	if err != nil {
		return err
	}
	if ttl == 0 || ttl < QueueMessageTTLInfinite || ttl > maxQueueMessageTTL {
		return arm.BadRequest("queueMessageTimeToLiveInSeconds must be a positive number of seconds, or -1 for messages that never expire; got %d.", ttl)
	}
	return nil
}

// checkQueueName applies Azure Storage's queue naming rule: 3 to 63
// lower-case letters, digits and single hyphens, starting and ending with a
// letter or digit.
func checkQueueName(name string) *arm.Error {
	if !deadletter.ValidStorageName(name) {
		return arm.BadRequest("destination.properties.queueName '%s' is not a valid queue name: 3 to 63 lower-case letters, digits and single hyphens, starting and ending with a letter or digit.", name)
	}
	return nil
}

package deadletter

import (
	"fmt"
	"strings"
)

// Destination is a subscription's dead-letter location (EG-19): a blob
// container in a storage account.
type Destination struct {
	Account   string
	Container string
}

// ParseDestination reads deadLetterDestination.properties as ARM sends it:
// resourceID is the storage account's id
// (/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Storage/storageAccounts/<name>)
// and container the blobContainerName. The container may instead end the
// resource id, in the form the CLI's --deadletter-endpoint takes
// (…/storageAccounts/<name>/blobServices/default/containers/<container>),
// with container empty or equal. Segment names match case-insensitively, as
// ARM ids do.
func ParseDestination(resourceID, container string) (Destination, error) {
	seg := strings.Split(strings.Trim(resourceID, "/"), "/")
	bad := func(why string) (Destination, error) {
		return Destination{}, fmt.Errorf("the dead-letter destination resource id %q is not a storage account resource id (/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Storage/storageAccounts/<name>): %s", resourceID, why)
	}
	if len(seg) != 8 && len(seg) != 12 {
		return bad("wrong number of segments")
	}
	want := []string{"subscriptions", "", "resourcegroups", "", "providers", "microsoft.storage", "storageaccounts", ""}
	for i, w := range want {
		if w != "" && !strings.EqualFold(seg[i], w) {
			return bad(fmt.Sprintf("segment %d is %q, expected %q", i+1, seg[i], w))
		}
		if seg[i] == "" {
			return bad(fmt.Sprintf("segment %d is empty", i+1))
		}
	}
	if len(seg) == 12 {
		if !strings.EqualFold(seg[8], "blobServices") || !strings.EqualFold(seg[9], "default") || !strings.EqualFold(seg[10], "containers") {
			return bad("a container must be given as …/blobServices/default/containers/<name>")
		}
		switch {
		case container == "":
			container = seg[11]
		case container != seg[11]:
			return Destination{}, fmt.Errorf("blobContainerName %q differs from the container %q named in the resource id", container, seg[11])
		}
	}
	d := Destination{Account: seg[7], Container: container}
	if err := checkAccountName(d.Account); err != nil {
		return Destination{}, err
	}
	if err := checkContainerName(d.Container); err != nil {
		return Destination{}, err
	}
	return d, nil
}

// Blob is where a blob of this destination goes, in the sink's terms:
// "<account>/<container>/<blob path>".
func (d Destination) Blob(path string) string {
	return d.Account + "/" + d.Container + "/" + path
}

// checkAccountName applies Azure Storage's rule: 3 to 24 lower-case letters
// and digits.
func checkAccountName(name string) error {
	if len(name) < 3 || len(name) > 24 || strings.IndexFunc(name, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) >= 0 {
		return fmt.Errorf("storage account name %q is invalid: it must be 3 to 24 lower-case letters and digits", name)
	}
	return nil
}

// ValidStorageName applies Azure Storage's rule for container and queue
// names: 3 to 63 lower-case letters, digits and hyphens, starting and ending
// with a letter or digit, no two hyphens in a row.
func ValidStorageName(name string) bool {
	return len(name) >= 3 && len(name) <= 63 &&
		name[0] != '-' && name[len(name)-1] != '-' && !strings.Contains(name, "--") &&
		strings.IndexFunc(name, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-'
		}) < 0
}

// checkContainerName applies Azure Blob's container naming rule.
func checkContainerName(name string) error {
	if !ValidStorageName(name) {
		return fmt.Errorf("blobContainerName %q is invalid: it must be 3 to 63 lower-case letters, digits and single hyphens, starting and ending with a letter or digit", name)
	}
	return nil
}

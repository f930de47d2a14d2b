package azblobsink

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Azurite's fixed development account. Azure tools accept
// "UseDevelopmentStorage=true" as shorthand for it.
const (
	DevAccountName = "devstoreaccount1"
	DevAccountKey  = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

	devBlobPort  = "10000"
	devQueuePort = "10001"
)

// An Account is one Azure Storage account that dead letters can be written
// to: its name, its shared key and the service endpoints taken from its
// connection string. An endpoint is empty when the connection string neither
// names it nor lets it be derived.
type Account struct {
	Name string
	// Key is the base64 shared key, as Azure prints it.
	Key string
	// BlobEndpoint is the blob service URL, e.g.
	// "https://acct.blob.core.windows.net" or, for Azurite,
	// "http://127.0.0.1:10000/devstoreaccount1".
	BlobEndpoint string
	// QueueEndpoint is the queue service URL, built the same way.
	QueueEndpoint string
}

// ParseConnectionString reads an Azure Storage connection string in any of
// the forms that Azure and Azurite document:
//
//   - explicit endpoints: "DefaultEndpointsProtocol=http;AccountName=…;AccountKey=…;BlobEndpoint=…;QueueEndpoint=…"
//   - derived endpoints: "DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net"
//     (EndpointSuffix and the protocol default to core.windows.net and https)
//   - Azurite's shorthand: "UseDevelopmentStorage=true", optionally with
//     "DevelopmentStorageProxyUri=http://host", which means devstoreaccount1
//     on ports 10000 (blob) and 10001 (queue) of 127.0.0.1 or the proxy host.
//
// Keys are matched without regard to case, as Azure's own parsers do. An
// explicit endpoint wins over a derived one; the other services are derived
// only when the string has no explicit endpoint or names an EndpointSuffix,
// so an Azurite string with only BlobEndpoint does not grow a cloud queue URL.
func ParseConnectionString(s string) (Account, error) {
	fields, err := splitConnectionString(s)
	if err != nil {
		return Account{}, err
	}
	if v, ok := fields["usedevelopmentstorage"]; ok {
		return parseDevelopmentStorage(v, fields)
	}
	if _, ok := fields["sharedaccesssignature"]; ok {
		return Account{}, errors.New("azure storage connection string: SharedAccessSignature is not supported; give AccountName and AccountKey")
	}

	acct := Account{
		Name:          fields["accountname"],
		Key:           fields["accountkey"],
		BlobEndpoint:  strings.TrimRight(fields["blobendpoint"], "/"),
		QueueEndpoint: strings.TrimRight(fields["queueendpoint"], "/"),
	}
	if acct.Name == "" {
		return Account{}, errors.New("azure storage connection string: AccountName is missing")
	}
	if acct.Key == "" {
		return Account{}, fmt.Errorf("azure storage connection string for account %q: AccountKey is missing", acct.Name)
	}
	if _, err := base64.StdEncoding.DecodeString(acct.Key); err != nil {
		return Account{}, fmt.Errorf("azure storage connection string for account %q: AccountKey is not base64: %v", acct.Name, err)
	}

	suffix, hasSuffix := fields["endpointsuffix"]
	if hasSuffix && suffix == "" {
		return Account{}, fmt.Errorf("azure storage connection string for account %q: EndpointSuffix is empty", acct.Name)
	}
	if !hasSuffix {
		suffix = "core.windows.net"
	}
	protocol := strings.ToLower(fields["defaultendpointsprotocol"])
	switch protocol {
	case "":
		protocol = "https"
	case "http", "https":
	default:
		return Account{}, fmt.Errorf("azure storage connection string for account %q: DefaultEndpointsProtocol %q is neither http nor https", acct.Name, fields["defaultendpointsprotocol"])
	}
	if derive := hasSuffix || (acct.BlobEndpoint == "" && acct.QueueEndpoint == ""); derive {
		if acct.BlobEndpoint == "" {
			acct.BlobEndpoint = protocol + "://" + acct.Name + ".blob." + suffix
		}
		if acct.QueueEndpoint == "" {
			acct.QueueEndpoint = protocol + "://" + acct.Name + ".queue." + suffix
		}
	}
	for _, ep := range []struct{ key, value string }{{"BlobEndpoint", acct.BlobEndpoint}, {"QueueEndpoint", acct.QueueEndpoint}} {
		if ep.value == "" {
			continue
		}
		if err := checkEndpoint(ep.value); err != nil {
			return Account{}, fmt.Errorf("azure storage connection string for account %q: %s: %v", acct.Name, ep.key, err)
		}
	}
	return acct, nil
}

// splitConnectionString turns "k1=v1;k2=v2;" into a map keyed by the lower-case
// key. Values keep everything after the first '=', since keys end in '=' padding.
func splitConnectionString(s string) (map[string]string, error) {
	fields := map[string]string{}
	for part := range strings.SplitSeq(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, value, ok := strings.Cut(part, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("azure storage connection string: %q is not key=value", redactPart(part))
		}
		lower := strings.ToLower(key)
		if _, dup := fields[lower]; dup {
			return nil, fmt.Errorf("azure storage connection string: %s is given twice", redactPart(key))
		}
		fields[lower] = strings.TrimSpace(value)
	}
	if len(fields) == 0 {
		return nil, errors.New("azure storage connection string is empty")
	}
	return fields, nil
}

// redactPart keeps a bad segment recognisable in an error without printing a
// secret that a user may have pasted in the wrong place.
func redactPart(part string) string {
	if len(part) > 12 {
		return part[:12] + "…"
	}
	return part
}

func parseDevelopmentStorage(value string, fields map[string]string) (Account, error) {
	if !strings.EqualFold(value, "true") {
		return Account{}, fmt.Errorf("azure storage connection string: UseDevelopmentStorage=%s; only \"true\" has a meaning", value)
	}
	for key := range fields {
		if key != "usedevelopmentstorage" && key != "developmentstorageproxyuri" {
			return Account{}, fmt.Errorf("azure storage connection string: UseDevelopmentStorage=true allows only DevelopmentStorageProxyUri beside it, not %q", key)
		}
	}
	scheme, host := "http", "127.0.0.1"
	if proxy, ok := fields["developmentstorageproxyuri"]; ok {
		u, err := url.Parse(proxy)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			return Account{}, fmt.Errorf("azure storage connection string: DevelopmentStorageProxyUri %q is not an http(s) URL with a host", proxy)
		}
		// Like Azure's own tools, keep the proxy's scheme and host and use the
		// fixed development ports.
		scheme, host = u.Scheme, u.Hostname()
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return Account{
		Name:          DevAccountName,
		Key:           DevAccountKey,
		BlobEndpoint:  scheme + "://" + host + ":" + devBlobPort + "/" + DevAccountName,
		QueueEndpoint: scheme + "://" + host + ":" + devQueuePort + "/" + DevAccountName,
	}, nil
}

func checkEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q is not an http or https URL", raw)
	}
	if u.Host == "" {
		return fmt.Errorf("%q has no host", raw)
	}
	return nil
}

package namespaces

import "strings"

// DataPlanePrefix is where namespace data planes live on GridBridge's
// listeners: a namespace's topics are under DataPlanePrefix + its name.
// Azure gives every namespace a host name of its own
// ({namespace}.{region}-1.eventgrid.azure.net); GridBridge has one listener,
// so it tells namespaces apart by this path prefix, which the SDKs keep when
// they join "/topics/{t}:publish" to the endpoint.
const DataPlanePrefix = "/eventgrid/namespaces/"

// Hostname is topicsConfiguration.hostname for a namespace: no scheme, as the
// service reports it, because clients prepend "https://" and must reach the
// TLS listener (the Go SDK refuses to send credentials over http).
func Hostname(tlsHost, namespace string) string {
	return strings.TrimSuffix(tlsHost, "/") + DataPlanePrefix + namespace
}

// Endpoint is the data-plane endpoint clients build from a hostname.
func Endpoint(hostname string) string { return "https://" + hostname }

// hostname is the namespace's data-plane host name on this emulator. Without
// a TLS listener to point at, it is the cloud's form, which at least shows
// the shape.
func (s *Service) hostname(ns *namespaceState) string {
	if host := s.cfg.PublicTLSHost(); host != "" {
		return Hostname(host, ns.res.Name)
	}
	region := strings.ToLower(strings.ReplaceAll(ns.res.Location, " ", ""))
	return ns.res.Name + "." + region + "-1.eventgrid.azure.net"
}

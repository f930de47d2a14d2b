package emulator

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gridbridge/gridbridge/internal/httpjson"
)

// The emulator runs beside a developer's browser. Two checks keep a web page
// from reading or driving it: a Host allow-list on every route (a page that
// rebinds its own DNS name to 127.0.0.1 still sends its own name as Host),
// and a JSON content type on every mutating /_emulator/ call (a page can only
// send one cross-site after a CORS preflight, which the emulator never
// answers). The same approach as webpack-dev-server's and Vite's allowedHosts.
//
// The cloud APIs cannot demand a content type (ARM's listKeys has no body,
// Scheduler's and ARM's POSTs are JSON in whatever type a client says), so a
// third check covers them: a state-changing request that a browser made
// from another origin carries an Origin header, which SDKs and the CLI never
// send; it is refused unless the origin is the emulator itself or an
// --allowed-host. That stops a page on any site, or on another local port,
// from creating schedules or regenerating keys with a "simple" request.

// hostAllowList says which Host headers the emulator answers.
type hostAllowList struct {
	any     bool            // "*" was configured: every host is allowed
	exact   map[string]bool // lower-case names
	domains []string        // ".example.test": the name and its subdomains
}

// newHostAllowList builds the list from the options: the --tls-host names,
// the host of --advertise-tls-url and every --allowed-host. IP literals,
// localhost and *.localhost are always allowed.
func newHostAllowList(opts Options) hostAllowList {
	l := hostAllowList{exact: map[string]bool{}}
	names := append(append([]string(nil), opts.TLSHosts...), opts.AllowedHosts...)
	if opts.AdvertiseTLSURL != "" {
		if u, err := url.Parse(opts.AdvertiseTLSURL); err == nil && u.Hostname() != "" {
			names = append(names, u.Hostname())
		}
	}
	for _, n := range names {
		n = normalizeHost(n)
		switch {
		case n == "":
		case n == "*":
			l.any = true
		case strings.HasPrefix(n, "*."):
			l.domains = append(l.domains, n[1:])
		case strings.HasPrefix(n, "."):
			l.domains = append(l.domains, n)
		default:
			l.exact[n] = true
		}
	}
	return l
}

// normalizeHost lower-cases a name and drops a trailing dot, so
// "LOCALHOST." and "localhost" are one name.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// allows reports whether a request's Host header (with or without a port)
// names this emulator.
func (l hostAllowList) allows(hostHeader string) bool {
	if l.any || hostHeader == "" {
		// HTTP/1.0 requests may carry no Host; a browser always sends one.
		return true
	}
	host := hostHeader
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	host = normalizeHost(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || l.exact[host] {
		return true
	}
	for _, d := range l.domains {
		if host == d[1:] || strings.HasSuffix(host, d) {
			return true
		}
	}
	return false
}

// guard wraps the router with the Host allow-list and the content-type rule
// of mutating inspection calls.
func guard(hosts hostAllowList, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hosts.allows(r.Host) {
			writeGuardError(w, http.StatusForbidden, "HostNotAllowed", fmt.Sprintf(
				"GridBridge does not answer requests for host %q (a protection against DNS rebinding). "+
					"IP addresses, localhost, *.localhost, the --tls-host names and the host of --advertise-tls-url are allowed; "+
					"add this host with --allowed-host (GRIDBRIDGE_ALLOWED_HOST).", r.Host))
			return
		}
		if origin := r.Header.Get("Origin"); changesState(r) && origin != "" && !hosts.allowsOrigin(origin, r.Host) {
			writeGuardError(w, http.StatusForbidden, "CrossOriginRequestRefused", fmt.Sprintf(
				"%s %s came from the web page at %q, another origin than this emulator (a protection against cross-site requests). "+
					"Add the page's host with --allowed-host (GRIDBRIDGE_ALLOWED_HOST) to let it drive the emulator.",
				r.Method, r.URL.Path, origin))
			return
		}
		if mutatingInspection(r) && !isJSON(r.Header.Get("Content-Type")) {
			writeGuardError(w, http.StatusUnsupportedMediaType, "UnsupportedMediaType", fmt.Sprintf(
				"%s %s needs Content-Type: application/json (a protection against cross-site requests); got %q.",
				r.Method, r.URL.Path, r.Header.Get("Content-Type")))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// changesState reports whether r's method may change the emulator's state.
func changesState(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// mutatingInspection reports whether r may change the emulator's state
// through the inspection API.
func mutatingInspection(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/_emulator/") && changesState(r)
}

// allowsOrigin reports whether a browser page at origin may change state:
// when it is this emulator's own origin (the dashboard: same host and port
// as the request's Host), or its host was allowed by name with
// --allowed-host. IP literals and localhost are not enough here, since any
// local server's page has such an origin.
func (l hostAllowList) allowsOrigin(origin, hostHeader string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" (a sandboxed frame, a file:// page) or garbage
	}
	if strings.EqualFold(u.Host, hostHeader) {
		return true
	}
	if l.any {
		return true
	}
	host := normalizeHost(u.Hostname())
	if l.exact[host] {
		return true
	}
	for _, d := range l.domains {
		if host == d[1:] || strings.HasSuffix(host, d) {
			return true
		}
	}
	return false
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

func writeGuardError(w http.ResponseWriter, status int, code, message string) {
	httpjson.Write(w, status, map[string]any{"error": map[string]string{"code": code, "message": message}},
		httpjson.EscapeHTML(), httpjson.NoNewline())
}

// Package ui serves the dashboard at /_emulator/ui: a page that shows what the
// emulator holds and did (resources, events and their attempts, dead letters,
// drops), drives a virtual clock and manages fault rules. Its assets are
// embedded, so the binary needs no network and no build step at run time; the
// page reads only the inspection API and the few read-only endpoints below,
// which page through a full journal so every view renders fast.
package ui

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/httpjson"
)

//go:embed assets
var assets embed.FS

// Source is what the dashboard reads.
type Source struct {
	Journal *engine.Journal
	// Virtual is the virtual clock, or nil on a real clock.
	Virtual *engine.VirtualClock
}

// ContentSecurityPolicy is sent with every page and asset: scripts, styles
// and requests only from the emulator itself, nothing inline, no framing.
const ContentSecurityPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Register mounts the dashboard and its read-only endpoints on r, the
// emulator's /_emulator subrouter. Endpoints are registered before the asset
// prefix so that /ui/api/... never falls through to a file lookup.
func Register(r *mux.Router, src Source) {
	a := &api{src: src}
	r.HandleFunc("/ui/api/events", a.handleEvents).Methods(http.MethodGet)
	r.HandleFunc("/ui/api/entries", a.handleEntries).Methods(http.MethodGet)
	r.HandleFunc("/ui/api/timers", a.handleTimers).Methods(http.MethodGet)
	r.HandleFunc("/ui/api/changes", a.handleChanges).Methods(http.MethodGet)
	r.PathPrefix("/ui/api/").HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpjson.Error(w, http.StatusNotFound, "no dashboard endpoint %s %s", r.Method, r.URL.Path)
	})
	r.Handle("/ui", http.RedirectHandler("/_emulator/ui/", http.StatusFound)).Methods(http.MethodGet, http.MethodHead)
	r.PathPrefix("/ui/").Handler(assetHandler()).Methods(http.MethodGet, http.MethodHead)
}

// assetHandler serves the embedded files under /_emulator/ui/; every other
// path below it is the single page (index.html), whose script routes on the
// URL fragment.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embed directive guarantees the directory
	}
	files := http.FileServer(http.FS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/_emulator/ui/")
		if name == "" || strings.HasSuffix(name, "/") {
			name = "index.html"
		}
		name = path.Clean(name)
		if _, err := fs.Stat(sub, name); err != nil {
			name = "index.html"
		}
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// Assets change with the binary; revalidating is cheap on loopback.
		h.Set("Cache-Control", "no-cache")
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + name
		if name == "index.html" {
			// FileServer redirects /index.html to /; serve the file itself.
			serveIndex(w, r2, sub)
			return
		}
		files.ServeHTTP(w, r2)
	})
}

func serveIndex(w http.ResponseWriter, r *http.Request, sub fs.FS) {
	b, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(b)
}

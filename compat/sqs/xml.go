package sqs

import (
	"encoding/base64"
	"encoding/xml"
	"sort"
	"strings"
)

// xmlWriter builds a query-protocol response body.
type xmlWriter struct{ b strings.Builder }

func (w *xmlWriter) open(tag string)  { w.b.WriteString("<" + tag + ">") }
func (w *xmlWriter) close(tag string) { w.b.WriteString("</" + tag + ">") }

func (w *xmlWriter) elem(tag, text string) {
	w.open(tag)
	_ = xml.EscapeText(&w.b, []byte(text))
	w.close(tag)
}

func (w *xmlWriter) optional(tag, text string) {
	if text != "" {
		w.elem(tag, text)
	}
}

// pairs writes a flattened map, one <tag><k>..</k><v>..</v></tag> per entry
// in key order.
func (w *xmlWriter) pairs(tag, k, v string, m map[string]string) {
	for _, key := range sortedKeys(m) {
		w.open(tag)
		w.elem(k, key)
		w.elem(v, m[key])
		w.close(tag)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// xmlResult is an output the query protocol can render.
type xmlResult interface{ writeXML(w *xmlWriter) }

// Package sas checks Event Grid shared access signatures:
// "r={resource}&e={expiry}&s={signature}", where the signature is
// base64(HMAC-SHA256(key = base64-decoded access key, message = "r=…&e=…"
// exactly as sent)). Publishers encode r and e differently (.NET
// HttpUtility, JS encodeURIComponent, Go url.QueryEscape) and write the
// expiry in different formats, so nothing is re-encoded and every known
// expiry format is read.
package sas

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"
)

// Errors Verify returns; the publish handler answers all of them with 401.
var (
	ErrMalformed = errors.New("the shared access signature is malformed")
	ErrSignature = errors.New("the shared access signature does not match any key of the topic")
	ErrExpired   = errors.New("the shared access signature has expired")
	ErrResource  = errors.New("the shared access signature was issued for another resource")
)

// Verify checks token against the topic's keys (base64 strings), its
// endpoint URL and the current time.
func Verify(token string, keys []string, endpoint string, now time.Time) error {
	cut := strings.LastIndex(token, "&s=")
	if cut < 0 {
		return ErrMalformed
	}
	unsigned, sig := token[:cut], token[cut+len("&s="):]
	fields, err := url.ParseQuery(unsigned)
	if err != nil || fields.Get("r") == "" || fields.Get("e") == "" {
		return ErrMalformed
	}
	if !signedByAny(unsigned, sig, keys) {
		return ErrSignature
	}
	if !notExpired(fields.Get("e"), now) {
		return ErrExpired
	}
	if !sameResource(fields.Get("r"), endpoint) {
		return ErrResource
	}
	return nil
}

// signedByAny compares the signature, read with query unescaping and, so a
// raw '+' of an unencoded base64 signature survives, with path unescaping.
func signedByAny(unsigned, sig string, keys []string) bool {
	var candidates []string
	if s, err := url.QueryUnescape(sig); err == nil {
		candidates = append(candidates, s)
	}
	if s, err := url.PathUnescape(sig); err == nil {
		candidates = append(candidates, s)
	}
	for _, key := range keys {
		secret, err := base64.StdEncoding.DecodeString(key)
		if err != nil || key == "" {
			continue
		}
		mac := hmac.New(sha256.New, secret)
		mac.Write([]byte(unsigned))
		want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
		for _, c := range candidates {
			if hmac.Equal([]byte(c), []byte(want)) {
				return true
			}
		}
	}
	return false
}

// expiryLayouts are the ISO-like forms publishers write e in: RFC 3339 (the
// Go SDK), ISO 8601 without a zone (UTC), and Python's str(datetime) — a
// space for the T, microseconds only when non-zero, "+00:00" for an aware
// datetime and no zone for a naive one (azure-eventgrid's generate_sas).
// Fractions are optional in every layout (".999999999").
func expiryLayouts() []string {
	return []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999",
	}
}

// notExpired reads e (already query-unescaped: '+' is a space) in the
// formats publishers use: expiryLayouts, and the .NET/JS en-US
// "1/2/2006 3:04:05 PM" (UTC). The JS helper writes AM for 12:xx in the
// afternoon, so at hour 12 both readings are tried.
func notExpired(e string, now time.Time) bool {
	for _, layout := range expiryLayouts() {
		if t, err := time.ParseInLocation(layout, e, time.UTC); err == nil {
			return now.Before(t)
		}
	}
	t, err := time.ParseInLocation("1/2/2006 3:04:05 PM", e, time.UTC)
	if err != nil {
		return false
	}
	if t.Hour() == 0 || t.Hour() == 12 {
		return now.Before(t) || now.Before(t.Add(12*time.Hour))
	}
	return now.Before(t)
}

// sameResource compares r with the topic endpoint case-insensitively,
// ignoring any query (JS and Python sign "<endpoint>?apiVersion=…") and a
// trailing slash. A matching path is enough, because a test may reach the
// emulator under another host name than the one it advertises. How strict
// the service is here is UNCONFIRMED.
func sameResource(r, endpoint string) bool {
	norm := func(s string) string {
		s, _, _ = strings.Cut(s, "?")
		return strings.ToLower(strings.TrimRight(s, "/"))
	}
	if norm(r) == norm(endpoint) {
		return true
	}
	ru, err1 := url.Parse(r)
	eu, err2 := url.Parse(endpoint)
	return err1 == nil && err2 == nil && ru.Path != "" && norm(ru.Path) == norm(eu.Path)
}

// Sign builds a token the way the Go SDK's test helper does (RFC 3339
// expiry, url.QueryEscape), for tests and tools.
func Sign(resource, key string, expiry time.Time) (string, error) {
	secret, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return "", err
	}
	unsigned := "r=" + url.QueryEscape(resource) + "&e=" + url.QueryEscape(expiry.UTC().Format(time.RFC3339))
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(unsigned))
	return unsigned + "&s=" + url.QueryEscape(base64.StdEncoding.EncodeToString(mac.Sum(nil))), nil
}

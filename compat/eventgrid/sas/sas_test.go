package sas

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

const (
	endpoint = "https://127.0.0.1:8443/topics/orders/api/events"
	key      = "c2VjcmV0LWtleS1mb3ItdGVzdHMtMzItYnl0ZXMhIQ=="
	other    = "b3RoZXIta2V5"
)

var now = time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC)

// sign builds a token from already-encoded r and e, the way each SDK
// does, signing the exact string.
func sign(r, e string, escapeSig func(string) string) string {
	secret, _ := base64.StdEncoding.DecodeString(key)
	mac := hmac.New(sha256.New, secret)
	unsigned := "r=" + r + "&e=" + e
	mac.Write([]byte(unsigned))
	return unsigned + "&s=" + escapeSig(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
}

func TestVerifyGeneratorsOfEachSDK(t *testing.T) {
	t.Parallel()
	goToken, err := Sign(endpoint, key, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"Go test helper (RFC 3339, QueryEscape)": goToken,
		"JS encodeURIComponent, ?apiVersion resource, en-US time": sign(
			url.PathEscape(endpoint+"?apiVersion=2018-01-01"), url.PathEscape("3/10/2026 9:00:00 AM"), url.QueryEscape),
		".NET HttpUtility (lower-case %2f, space as +)": sign(
			strings.ToLower(url.QueryEscape(endpoint)), "3%2f10%2f2026+9%3a00%3a00+AM", url.QueryEscape),
		"raw base64 signature with + and /": sign(url.QueryEscape(endpoint), url.QueryEscape("2026-03-10T09:00:00Z"), func(s string) string { return s }),
		"zone-less ISO expiry":              sign(url.QueryEscape(endpoint), url.QueryEscape("2026-03-10T09:00:00"), url.QueryEscape),
		// JS writes AM for 12:xx in the afternoon.
		"JS 12 o'clock AM/PM slip": sign(url.QueryEscape(endpoint), url.QueryEscape("3/10/2026 12:30:00 AM"), url.QueryEscape),
		// azure-eventgrid 4.9.2's generate_sas: quote(str(datetime)) with
		// safe="~()*!.'", resource "<endpoint>?api-version=…".
		"Python str(aware datetime)":              sign(pyQuote(endpoint+"?api-version=2018-01-01"), pyQuote("2026-03-10 08:32:40.123456+00:00"), pyQuote),
		"Python str(datetime), no microseconds":   sign(pyQuote(endpoint), pyQuote("2026-03-10 09:00:00+00:00"), pyQuote),
		"Python str(naive datetime), read as UTC": sign(pyQuote(endpoint), pyQuote("2026-03-10 08:00:01"), pyQuote),
		"Python str(datetime) in another zone":    sign(pyQuote(endpoint), pyQuote("2026-03-10 10:00:00+01:00"), pyQuote),
		"another host, same path":                 sign(url.QueryEscape("https://localhost:9999/topics/orders/api/events"), url.QueryEscape("2026-03-10T09:00:00Z"), url.QueryEscape),
	}
	for name, token := range cases {
		if err := Verify(token, []string{other, key}, endpoint, now); err != nil {
			t.Errorf("%s: %v (%s)", name, err, token)
		}
	}
}

// pyQuote is Python's urllib.parse.quote(s, safe="~()*!.'"): a space is
// %20, '+' and ':' are escaped.
func pyQuote(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.-~()*!'/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// TestVerifyExpiryFormatsAtTheBoundary pins each SDK's expiry format (the
// way it writes one second before and after now) as read on the right
// side of now: Go RFC 3339, .NET/JS en-US, Python str(datetime).
func TestVerifyExpiryFormatsAtTheBoundary(t *testing.T) {
	t.Parallel()
	formats := map[string]func(time.Time) string{
		"Go RFC 3339":              func(x time.Time) string { return x.Format(time.RFC3339) },
		".NET/JS en-US":            func(x time.Time) string { return x.Format("1/2/2006 3:04:05 PM") },
		"Python str(datetime)":     func(x time.Time) string { return x.Format("2006-01-02 15:04:05.000000-07:00") },
		"Python naive datetime":    func(x time.Time) string { return x.Format("2006-01-02 15:04:05") },
		"Python, Paris wall clock": func(x time.Time) string { return x.In(time.FixedZone("CET", 3600)).Format("2006-01-02 15:04:05-07:00") },
	}
	for name, format := range formats {
		for _, d := range []time.Duration{time.Second, -time.Second} {
			token := sign(pyQuote(endpoint), pyQuote(format(now.Add(d))), pyQuote)
			err := Verify(token, []string{key}, endpoint, now)
			if d > 0 && err != nil {
				t.Errorf("%s, expiry now+1s: %v (%s)", name, err, token)
			}
			if d < 0 && !errors.Is(err, ErrExpired) {
				t.Errorf("%s, expiry now-1s: got %v, want ErrExpired (%s)", name, err, token)
			}
		}
	}
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	valid, _ := Sign(endpoint, key, now.Add(time.Hour))
	expired, _ := Sign(endpoint, key, now.Add(-time.Second))
	foreign, _ := Sign("https://127.0.0.1:8443/topics/invoices/api/events", key, now.Add(time.Hour))
	cases := []struct {
		name, token string
		keys        []string
		want        error
	}{
		{"wrong key", valid, []string{other}, ErrSignature},
		{"tampered expiry", strings.Replace(valid, "2026", "2027", 1), []string{key}, ErrSignature},
		{"expired", expired, []string{key}, ErrExpired},
		{"other topic", foreign, []string{key}, ErrResource},
		{"no signature", "r=x&e=y", []string{key}, ErrMalformed},
		{"no resource", "e=y&s=z", []string{key}, ErrMalformed},
		{"garbage", "%%%&s=%%", []string{key}, ErrMalformed},
		{"unreadable expiry", sign("r", "tomorrow", url.QueryEscape), []string{key}, ErrExpired},
	}
	for _, tc := range cases {
		if err := Verify(tc.token, tc.keys, endpoint, now); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

func FuzzVerify(f *testing.F) {
	tok, _ := Sign(endpoint, key, now.Add(time.Hour))
	f.Add(tok)
	f.Add("r=&e=&s=")
	f.Fuzz(func(t *testing.T, token string) { _ = Verify(token, []string{key, "not base64"}, endpoint, now) })
}

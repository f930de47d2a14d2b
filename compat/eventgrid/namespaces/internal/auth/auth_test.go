package auth

import (
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	keys := []string{"key-one", "key-two"}
	cases := []struct {
		name, header, value, query string
		ok                         bool
	}{
		{"shared key 1", "Authorization", "SharedAccessKey key-one", "", true},
		{"shared key 2", "Authorization", "SharedAccessKey key-two", "", true},
		{"wrong key", "Authorization", "SharedAccessKey nope", "", false},
		{"empty key", "Authorization", "SharedAccessKey ", "", false},
		{"bearer", "Authorization", "Bearer eyJ.x.y", "", true},
		{"empty bearer", "Authorization", "Bearer", "", false},
		{"aeg-sas-key", "aeg-sas-key", "key-two", "", true},
		{"aeg-sas-key wrong", "aeg-sas-key", "x", "", false},
		{"query key", "", "", "aeg-sas-key=key-one", true},
		{"sas token", "Authorization", "SharedAccessSignature r=a&e=b&s=c", "", false},
		{"basic", "Authorization", "Basic abc", "", false},
		{"nothing", "", "", "", false},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/topics/t:publish?"+c.query, nil)
		if c.header != "" {
			r.Header.Set(c.header, c.value)
		}
		err := Check(r, keys)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && !IsAuthError(err) {
			t.Errorf("%s: %T is not an auth error", c.name, err)
		}
	}
	r := httptest.NewRequest("POST", "/", nil)
	r.Header.Set("Authorization", "SharedAccessKey ")
	if Check(r, []string{""}) == nil {
		t.Error("an empty configured key matched an empty credential")
	}
}

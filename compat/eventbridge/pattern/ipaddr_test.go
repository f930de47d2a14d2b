package pattern

import "testing"

func TestParseIP(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want ipParse
		addr string
	}{
		{"10.0.0.1", validIP, "10.0.0.1"},
		{"010.000.000.001", validIP, "10.0.0.1"},
		{"10.0.0.256", invalidIP, ""},
		{"10.0.0", notAnIP, ""},
		{"10.0.0.1.2", notAnIP, ""},
		{"host.example", notAnIP, ""},
		{"2001:db8::1", validIP, "2001:db8::1"},
		{"2001:DB8:0:0:0:0:0:1", validIP, "2001:db8::1"},
		{"::ffff:a00:1", validIP, "10.0.0.1"},
		{"1::2::3", invalidIP, ""},
		{"12345::", invalidIP, ""},
		{"::ffff:10.0.0.1", notAnIP, ""},
		{"fe80::1%eth0", notAnIP, ""},
	} {
		a, outcome := parseIP(c.text)
		if outcome != c.want || (outcome == validIP && a.String() != c.addr) {
			t.Errorf("parseIP(%q) = %v, %d; want %s, %d", c.text, a, outcome, c.addr, c.want)
		}
	}
}

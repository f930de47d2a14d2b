package pattern

import (
	"net/netip"
	"strconv"
	"strings"
)

// ipParse is the outcome of reading a string as an IP address the way AWS does.
type ipParse uint8

const (
	notAnIP   ipParse = iota // does not look like an IP address at all
	invalidIP                // looks like one (digits and dots, or hex and colons) but is not
	validIP
)

// parseIP reads an IPv4 or IPv6 address literal. AWS only tries strings shaped like
// "[0-9]+.[0-9]+.[0-9]+.[0-9]+" or made of hex digits and at least one colon; IPv4 parts may
// have leading zeros and are decimal ("010.1.2.3" is 10.1.2.3); an IPv4-mapped IPv6 address
// (::ffff:a01:203) is the IPv4 address.
func parseIP(s string) (netip.Addr, ipParse) {
	switch {
	case looksLikeIPv4(s):
		var b [4]byte
		part, v := 0, 0
		for i := 0; i < len(s); i++ {
			if s[i] == '.' {
				b[part] = byte(v)
				part, v = part+1, 0
				continue
			}
			if v = v*10 + int(s[i]-'0'); v > 255 {
				return netip.Addr{}, invalidIP
			}
		}
		b[part] = byte(v)
		return netip.AddrFrom4(b), validIP
	case looksLikeIPv6(s):
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Addr{}, invalidIP
		}
		return a.Unmap(), validIP
	}
	return netip.Addr{}, notAnIP
}

func looksLikeIPv4(s string) bool {
	parts, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && digits > 0 && parts < 3:
			parts++
			digits = 0
		default:
			return false
		}
	}
	return parts == 3 && digits > 0
}

func looksLikeIPv6(s string) bool {
	colon := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			colon = true
		case isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return colon
}

// parseCIDR validates the value of a cidr operator with AWS's checks and messages, in AWS's order.
func parseCIDR(s string) (netip.Prefix, error) {
	parts := splitDroppingTrailingEmpty(s, '/')
	if len(parts) != 2 {
		return netip.Prefix{}, invalidPattern("Malformed CIDR, one '/' required")
	}
	bits, err := parseMaskBits(parts[1])
	if err != nil {
		return netip.Prefix{}, invalidPattern("Malformed CIDR, mask bits must be an integer")
	}
	if bits < 0 {
		return netip.Prefix{}, invalidPattern("Malformed CIDR, mask bits must not be negative")
	}
	addr, outcome := parseIP(parts[0])
	switch outcome {
	case invalidIP:
		return netip.Prefix{}, invalidPattern("Invalid IP address: " + parts[0])
	case notAnIP:
		return netip.Prefix{}, invalidPattern("Nonstandard IP address: " + parts[0])
	}
	// AWS rejects the host-route masks /32 and /128.
	if addr.Is4() && bits > 31 {
		return netip.Prefix{}, invalidPattern("IPv4 mask bits must be < 32")
	}
	if addr.Is6() && bits > 127 {
		return netip.Prefix{}, invalidPattern("IPv6 mask bits must be < 128")
	}
	return netip.PrefixFrom(addr, bits).Masked(), nil
}

// splitDroppingTrailingEmpty splits a CIDR the way AWS does: trailing empty parts are dropped,
// so "10.0.0.0/" has one part (and is malformed) and "/" has none.
func splitDroppingTrailingEmpty(s string, sep byte) []string {
	parts := strings.Split(s, string(sep))
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 && s == "" {
		return []string{""}
	}
	return parts
}

// parseMaskBits reads a CIDR mask as AWS does: an optional sign and decimal digits that fit in
// 32 bits ("+8" is 8; "-1" is read, then rejected as negative).
func parseMaskBits(s string) (int, error) {
	if s == "" || s == "+" || s == "-" {
		return 0, strconv.ErrSyntax
	}
	digits := s
	if s[0] == '+' || s[0] == '-' {
		digits = s[1:]
	}
	for i := 0; i < len(digits); i++ {
		if !isDigit(digits[i]) {
			return 0, strconv.ErrSyntax
		}
	}
	v, err := strconv.ParseInt(s, 10, 32)
	return int(v), err
}

package game

import (
	"strings"

	"golang.org/x/net/idna"
)

// CanonAddress is the one form in which mail addresses are kept and
// compared, everywhere (seats, observers, the address index, the mail
// side's limits): surrounding space trimmed, the ASCII letters of the
// local part lowercased and nothing else in it changed, and the domain in
// its IDNA ASCII form (UTS #46 lookup mapping: case, fullwidth letters,
// then punycode), without a final dot.
//
// Unicode case folding must not be used on addresses: strings.EqualFold
// takes ſam (long s) for sam, strings.ToLower turns the Kelvin sign into
// k and İ into i plus a dot, so an address that merely looks like a
// player's would reach the seat, its secret and its reports. The local
// part is the receiving server's to interpret; only ASCII case is folded,
// as every mail system does. The domain is DNS's: written with fullwidth
// letters or in capitals it is the same domain, and mail to it goes to
// the same place. A domain IDNA refuses is kept as written, ASCII letters
// lowercased: it matches only itself.
func CanonAddress(addr string) string {
	addr = strings.TrimSpace(addr)
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return asciiLower(addr)
	}
	local, domain := addr[:at], strings.TrimSuffix(addr[at+1:], ".")
	if d, err := idna.Lookup.ToASCII(domain); err == nil && d != "" {
		domain = d
	} else {
		domain = asciiLower(domain)
	}
	return asciiLower(local) + "@" + domain
}

// SameAddress reports whether a and b are the same mailbox (CanonAddress);
// an empty address is nobody's.
func SameAddress(a, b string) bool {
	a, b = CanonAddress(a), CanonAddress(b)
	return a != "" && a == b
}

// asciiLower lowercases the ASCII letters of s and nothing else.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

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
	return asciiLower(local) + "@" + canonDomain(domain)
}

// canonDomain is the domain's IDNA ASCII form, or the domain with its
// ASCII letters lowercased when IDNA refuses it. A domain of ASCII
// letters, digits, hyphens and dots with no punycode label ("xn--") comes
// out of IDNA as it went in, lowercased, or is refused and lowercased:
// it skips IDNA, which is most of the cost of keeping the address indexes
// when a tick rewrites 100,000 games (TestCanonDomainFastPath holds the
// two ways equal).
func canonDomain(domain string) string {
	if plainDomain(domain) {
		return asciiLower(domain)
	}
	return idnaDomain(domain)
}

// idnaDomain is canonDomain by way of IDNA, always.
func idnaDomain(domain string) string {
	if d, err := idna.Lookup.ToASCII(domain); err == nil && d != "" {
		return d
	}
	return asciiLower(domain)
}

// plainDomain reports whether domain has only ASCII letters, digits,
// hyphens and dots, and no punycode label.
func plainDomain(domain string) bool {
	for i := 0; i < len(domain); i++ {
		switch c := domain[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.':
		case c == '-':
			// "xn--" starts a punycode label, which IDNA decodes
			// and checks.
			if i >= 2 && i+1 < len(domain) && domain[i+1] == '-' && (domain[i-1]|0x20) == 'n' && (domain[i-2]|0x20) == 'x' {
				return false
			}
		default:
			return false
		}
	}
	return true
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

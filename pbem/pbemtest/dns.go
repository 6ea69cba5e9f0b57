package pbemtest

import (
	"context"
	"net"
	"strings"
)

// DNS answers TXT look-ups from a map, so that sender authentication
// (policy.Resolver) is tested with no network: a name missing from the map
// does not exist, and the value "TEMPFAIL" is a DNS failure that may pass
// (SERVFAIL, a timeout).
type DNS map[string]string

// LookupTXT implements policy.Resolver.
func (d DNS) LookupTXT(_ context.Context, name string) ([]string, error) {
	switch v, ok := d[strings.ToLower(strings.TrimSuffix(name, "."))]; {
	case !ok:
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	case v == "TEMPFAIL":
		return nil, &net.DNSError{Err: "server misbehaving", Name: name, IsTemporary: true}
	default:
		return []string{v}, nil
	}
}

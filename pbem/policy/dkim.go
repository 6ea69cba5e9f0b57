package policy

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// LookupTXT answers DNS TXT queries; net.LookupTXT in production, a map in
// tests, so that this package never touches the network by itself.
type LookupTXT func(domain string) ([]string, error)

// VerifyDKIM checks the mail's own DKIM signatures, for setups whose
// receiving server writes no trustworthy Authentication-Results. It passes
// when one signature is valid and its signing domain (d=) is the domain of
// from or a parent of it (DMARC's relaxed alignment): a valid signature of
// some other domain proves nothing about the sender.
func VerifyDKIM(raw []byte, from string, lookup LookupTXT) error {
	at := strings.LastIndexByte(from, '@')
	if at < 0 {
		return fmt.Errorf("cannot check DKIM: sender %q has no domain", from)
	}
	domain := strings.ToLower(from[at+1:])
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 8})
	if err != nil && len(vs) == 0 {
		return fmt.Errorf("cannot check DKIM: %w", err)
	}
	if len(vs) == 0 {
		return fmt.Errorf("the mail has no DKIM signature, so %s cannot be confirmed as its sender", from)
	}
	var problems []string
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		aligned := d == domain || strings.HasSuffix(domain, "."+d)
		switch {
		case v.Err != nil:
			problems = append(problems, fmt.Sprintf("d=%s: %v", v.Domain, v.Err))
		case !aligned:
			problems = append(problems, fmt.Sprintf("d=%s is valid but does not match %s", v.Domain, domain))
		default:
			return nil
		}
	}
	return fmt.Errorf("no valid DKIM signature of %s: %s", domain, strings.Join(problems, "; "))
}

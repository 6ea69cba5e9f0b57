package daemon

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// checkDKIM demands a valid DKIM signature by the From address's domain (or
// a parent of it), for operators whose receiving server writes no
// Authentication-Results we can trust. lookup is the DNS TXT lookup (nil:
// the system resolver); a temporary DNS failure is an error, so the message
// is left in the inbox and tried again, not refused.
func checkDKIM(raw []byte, from string, lookup func(string) ([]string, error)) (refusal string, err error) {
	_, domain, ok := strings.Cut(strings.ToLower(from), "@")
	if !ok {
		return "no sender domain to check a DKIM signature against", nil
	}
	vs, verr := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 5})
	if verr != nil && len(vs) == 0 {
		return "", fmt.Errorf("dkim: %w", verr)
	}
	var seen []string
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		if v.Err == nil && (d == domain || strings.HasSuffix(domain, "."+d)) {
			return "", nil
		}
		if v.Err != nil && dkim.IsTempFail(v.Err) {
			return "", fmt.Errorf("dkim: %w", v.Err)
		}
		status := "valid"
		if v.Err != nil {
			status = v.Err.Error()
		}
		seen = append(seen, fmt.Sprintf("d=%s: %s", d, status))
	}
	if len(seen) == 0 {
		return fmt.Sprintf("no DKIM signature (needed from %s)", domain), nil
	}
	return fmt.Sprintf("no valid DKIM signature of %s (%s)", domain, strings.Join(seen, "; ")), nil
}

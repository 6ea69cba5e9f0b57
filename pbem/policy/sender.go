package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-msgauth/dmarc"
	"golang.org/x/net/publicsuffix"

	"orrery/engine/game"
	"orrery/pbem/inmail"
)

// SenderAuth is how a mail's From address is authenticated before its
// secret is looked at (security.sender_auth).
type SenderAuth string

const (
	// AuthOff trusts the From address as written: only the secret
	// decides. For demo and serve --embedded, which have no DNS.
	AuthOff SenderAuth = "off"
	// AuthDMARC applies the From domain's published DMARC policy: a mail
	// that no DKIM signature or SPF result aligned with its From domain
	// vouches for, from a domain that publishes p=reject or quarantine,
	// gets nothing applied and no answer. With no DMARC record (or
	// p=none), the secret decides, as with AuthOff.
	AuthDMARC SenderAuth = "dmarc"
	// AuthStrict refuses every mail that no aligned DKIM signature or SPF
	// result vouches for, whatever its domain publishes.
	AuthStrict SenderAuth = "strict"
)

// Resolver answers DNS TXT queries; *net.Resolver is one. Tests pass a map,
// so that no test touches the network.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// Verdict is what CheckSender found.
type Verdict struct {
	Domain string // the From address's domain
	// Aligned is set when a valid DKIM signature or an SPF pass of our
	// own receiving server vouches for an identity aligned with Domain
	// (DMARC alignment); By says which.
	Aligned bool
	By      string
	// Policy is the domain's published DMARC policy ("none",
	// "quarantine", "reject"), "" with no record.
	Policy string
	// Refuse: nothing in the mail may be applied, and it gets no answer
	// (an answer would go to the address it forged).
	Refuse bool
	// TempFail: a DNS look-up failed for now, and the verdict depends on
	// it: leave the mail for a later try.
	TempFail bool
	// Why says it in a sentence, for the log and `orrery mail check`.
	Why string
}

// CheckSender authenticates m's From address by DMARC's rules (RFC 7489):
// a DKIM signature verified here (emersion/go-msgauth), or the SPF result
// that our receiving server wrote in the topmost Authentication-Results
// header with our authserv-id, must pass for a domain aligned with the From
// domain (the same organisational domain, or the very domain where the
// record asks for strict alignment). What follows from a failure depends
// on c.SenderAuth and on the domain's published policy. raw is the mail as
// received. With giveUp, a DNS look-up that keeps failing counts as no
// record, so the secret decides and the mail is not stuck for ever.
func CheckSender(ctx context.Context, raw []byte, m *inmail.Message, c Config, res Resolver, giveUp bool) Verdict {
	if c.SenderAuth == "" || c.SenderAuth == AuthOff {
		return Verdict{Why: "sender authentication is off: the secret decides"}
	}
	if res == nil {
		res = net.DefaultResolver
	}
	lookup := func(name string) ([]string, error) { return res.LookupTXT(ctx, name) }
	// The domain as DNS knows it (IDNA): written in fullwidth letters or
	// capitals it is the same domain, with the same DMARC record.
	from := game.CanonAddress(m.From)
	at := strings.LastIndexByte(from, '@')
	if at < 0 || at == len(from)-1 {
		return Verdict{Refuse: true, Why: "the From address has no domain to authenticate"}
	}
	v := Verdict{Domain: from[at+1:]}

	rec, recErr := lookupDMARC(v.Domain, lookup)
	recTemp := recErr != nil && dmarc.IsTempFail(recErr)
	if rec != nil {
		v.Policy = string(rec.Policy)
	}
	dkimMode, spfMode := dmarc.AlignmentMode(dmarc.AlignmentRelaxed), dmarc.AlignmentMode(dmarc.AlignmentRelaxed)
	if rec != nil {
		if rec.DKIMAlignment == dmarc.AlignmentStrict {
			dkimMode = dmarc.AlignmentStrict
		}
		if rec.SPFAlignment == dmarc.AlignmentStrict {
			spfMode = dmarc.AlignmentStrict
		}
	}

	// DKIM, verified here.
	var seen []string
	dkimTemp := false
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 5})
	if err != nil && len(vs) == 0 && !errors.Is(err, dkim.ErrTooManySignatures) {
		seen = append(seen, "DKIM unreadable: "+err.Error())
	}
	for _, s := range vs {
		d := strings.ToLower(s.Domain)
		switch {
		case s.Err == nil && aligned(d, v.Domain, dkimMode):
			v.Aligned, v.By = true, "a valid DKIM signature of "+d
		case s.Err == nil:
			seen = append(seen, fmt.Sprintf("DKIM d=%s is valid but not aligned with %s", d, v.Domain))
		case dkim.IsTempFail(s.Err):
			dkimTemp = true
			seen = append(seen, fmt.Sprintf("DKIM d=%s: %v", d, s.Err))
		default:
			seen = append(seen, fmt.Sprintf("DKIM d=%s: %v", d, s.Err))
		}
		if v.Aligned {
			break
		}
	}
	// SPF and DKIM as our own server recorded them: only its topmost
	// header counts; any header below it may have been written by the
	// sender.
	if !v.Aligned && c.AuthServID != "" {
		v.Aligned, v.By, seen = trustedResults(m, c.AuthServID, v.Domain, dkimMode, spfMode, seen)
	}
	if v.Aligned {
		v.Why = fmt.Sprintf("%s vouches for %s", v.By, v.Domain)
		return v
	}
	if len(seen) == 0 {
		seen = append(seen, "no DKIM signature and no SPF result of "+orNone(c.AuthServID))
	}
	found := strings.Join(seen, "; ")
	if (recTemp || dkimTemp && rec != nil && rec.Policy != dmarc.PolicyNone) && !giveUp {
		v.TempFail = true
		v.Why = fmt.Sprintf("DNS does not answer for %s now (%s): try again later", v.Domain, found)
		return v
	}
	switch {
	case c.SenderAuth == AuthStrict:
		v.Refuse = true
		v.Why = fmt.Sprintf("nothing vouches for %s (%s), and sender_auth is strict", v.Domain, found)
	case giveUp && (recTemp || dkimTemp):
		v.Policy = ""
		v.Why = fmt.Sprintf("DNS has not answered for %s for too long (%s): taken as having no DMARC record; the secret decides", v.Domain, found)
	case rec != nil && (rec.Policy == dmarc.PolicyReject || rec.Policy == dmarc.PolicyQuarantine):
		v.Refuse = true
		v.Why = fmt.Sprintf("%s publishes DMARC p=%s and nothing vouches for this mail (%s): a forged sender", v.Domain, rec.Policy, found)
	case rec != nil:
		v.Why = fmt.Sprintf("nothing vouches for %s (%s), but its DMARC policy is none: the secret decides", v.Domain, found)
	default:
		v.Why = fmt.Sprintf("%s publishes no DMARC record: the secret decides", v.Domain)
	}
	return v
}

func orNone(id string) string {
	if id == "" {
		return "our server (security.auth_serv_id is not set)"
	}
	return id
}

// trustedResults reads the topmost Authentication-Results header, if our
// server (authserv-id id) wrote it, for a DKIM or SPF pass aligned with
// domain.
func trustedResults(m *inmail.Message, id, domain string, dkimMode, spfMode dmarc.AlignmentMode, seen []string) (bool, string, []string) {
	if len(m.AuthResults) == 0 {
		return false, "", append(seen, "no Authentication-Results header")
	}
	got, results, err := authres.Parse(m.AuthResults[0])
	if err != nil || !strings.EqualFold(got, id) {
		return false, "", append(seen, fmt.Sprintf("the topmost Authentication-Results is not %s's", id))
	}
	for _, r := range results {
		switch r := r.(type) {
		case *authres.SPFResult:
			d := r.From
			if i := strings.LastIndexByte(d, '@'); i >= 0 {
				d = d[i+1:]
			}
			if d == "" {
				d = r.Helo
			}
			d = strings.ToLower(d)
			if r.Value == authres.ResultPass && aligned(d, domain, spfMode) {
				return true, fmt.Sprintf("%s's SPF pass for %s", id, d), seen
			}
			seen = append(seen, fmt.Sprintf("SPF %s for %q by %s", r.Value, d, id))
		case *authres.DKIMResult:
			d := strings.ToLower(r.Domain)
			if r.Value == authres.ResultPass && aligned(d, domain, dkimMode) {
				return true, fmt.Sprintf("%s's DKIM pass for %s", id, d), seen
			}
			seen = append(seen, fmt.Sprintf("DKIM %s for %q by %s", r.Value, d, id))
		}
	}
	return false, "", seen
}

// aligned is DMARC's identifier alignment: the same organisational domain
// (relaxed), or the same domain (strict).
func aligned(d, from string, mode dmarc.AlignmentMode) bool {
	d, from = strings.TrimSuffix(strings.ToLower(d), "."), strings.TrimSuffix(strings.ToLower(from), ".")
	if d == "" {
		return false
	}
	if d == from {
		return true
	}
	return mode != dmarc.AlignmentStrict && orgDomain(d) == orgDomain(from)
}

// orgDomain is a domain's organisational domain (the public suffix plus
// one label): mail.example.co.uk → example.co.uk.
func orgDomain(d string) string {
	if o, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return o
	}
	return d
}

// lookupDMARC finds the DMARC record that governs domain: its own, else
// its organisational domain's, whose sp= then applies (RFC 7489 6.6.3).
// A record that is missing or unreadable is nil with a nil error; a DNS
// failure that may pass is an error dmarc.IsTempFail knows.
func lookupDMARC(domain string, lookup func(string) ([]string, error)) (*dmarc.Record, error) {
	rec, err := dmarc.LookupWithOptions(domain, &dmarc.LookupOptions{LookupTXT: lookup})
	if err == nil {
		return rec, nil
	}
	if dmarc.IsTempFail(err) {
		return nil, err
	}
	org := orgDomain(domain)
	if org == domain {
		return nil, nil
	}
	rec, err = dmarc.LookupWithOptions(org, &dmarc.LookupOptions{LookupTXT: lookup})
	if err != nil {
		if dmarc.IsTempFail(err) {
			return nil, err
		}
		return nil, nil
	}
	if rec.SubdomainPolicy != "" {
		rec.Policy = rec.SubdomainPolicy
	}
	return rec, nil
}

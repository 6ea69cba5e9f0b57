package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
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
	// AuthResults says which Authentication-Results header was read and
	// why it was believed or not (ReadResults), for `orrery mail check`;
	// "" when sender authentication is off or the From has no domain.
	AuthResults string
}

// CheckSender authenticates m's From address by DMARC's rules (RFC 7489):
// a DKIM signature verified here (emersion/go-msgauth), or the SPF result
// that our receiving server wrote in the topmost Authentication-Results
// header with our authserv-id, if no other header carries that id
// (ReadResults), must pass for a domain aligned with the From
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
	// header counts, and only if it is the one header with its id; any
	// header below it may have been written by the sender.
	ar := ReadResults(m.AuthResults, c.AuthServID)
	v.AuthResults = ar.Why
	if !v.Aligned && c.AuthServID != "" {
		v.Aligned, v.By, seen = trustedResults(ar, c.AuthServID, v.Domain, dkimMode, spfMode, seen)
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

// Results is what a mail's Authentication-Results headers say, as far as
// our own receiving server's may be believed (ReadResults).
type Results struct {
	// Trusted is set when one header is believed: Header is then its
	// value, and Results what it says.
	Trusted bool
	Header  string
	Results []authres.Result
	// Why says which header was read and why it is (not) believed, for
	// the log and `orrery mail check`.
	Why string
}

// ReadResults finds the Authentication-Results header our receiving server
// (authserv-id id) wrote among headers, topmost first, as inmail gives
// them. It is believed only if it is the topmost header and no other
// header carries id (RFC 8601 section 5): a receiver adds its header on
// top and deletes the ones that came with the mail claiming its id, so a
// second one means the MTA did not delete them, and then the topmost may
// be the sender's too. A header with our id below another server's is the
// sender's (or a relay's after ours, which is no better).
//
// Nothing is asked of the Received headers: where a milter puts its
// header relative to the MTA's own Received header differs between MTAs
// and milters (Postfix's PREPEND puts it above; others below), so a rule
// on it would refuse genuine mail on some set-ups, and it would need the
// MTA's host name as a setting of its own. What stops a lone forged
// header with our id, on an MTA that adds none, is the MTA stripping it
// (pbem/README.md).
func ReadResults(headers []string, id string) Results {
	n := len(headers)
	if id == "" {
		if n == 0 {
			return Results{Why: "no Authentication-Results header (none would be read: security.auth_serv_id is not set)"}
		}
		return Results{Why: fmt.Sprintf("%s, none read: security.auth_serv_id is not set, so no receiving server's verdict is believed", countHeaders(n))}
	}
	if n == 0 {
		return Results{Why: "no Authentication-Results header: " + id + " wrote none"}
	}
	var ours []string
	for i, h := range headers {
		if strings.EqualFold(resultsID(h), strings.TrimSuffix(id, ".")) {
			ours = append(ours, strconv.Itoa(i+1))
		}
	}
	top := resultsID(headers[0])
	switch {
	case len(ours) == 0:
		return Results{Why: fmt.Sprintf("%s, none with %s's id (the topmost is %s's)", countHeaders(n), id, orQuoted(top))}
	case len(ours) > 1:
		return Results{Why: fmt.Sprintf("%d Authentication-Results headers carry %s's id (headers %s of %d, from the top): the MTA did not strip those that came with the mail, so a sender may have written any of them, and none is believed", len(ours), id, strings.Join(ours, ", "), n)}
	case ours[0] != "1":
		return Results{Why: fmt.Sprintf("the Authentication-Results header with %s's id is header %s of %d, below %s's: the topmost is not ours, so that one came with the mail and is not believed", id, ours[0], n, orQuoted(top))}
	}
	got, results, err := authres.Parse(headers[0])
	if err != nil || !strings.EqualFold(got, id) {
		if err == nil {
			err = fmt.Errorf("its authserv-id reads as %q", got)
		}
		return Results{Why: fmt.Sprintf("the topmost Authentication-Results header carries %s's id but cannot be read (%v): not believed", id, err)}
	}
	return Results{Trusted: true, Header: headers[0], Results: results,
		Why: fmt.Sprintf("read the topmost Authentication-Results header (1 of %d), %s's and the only one with its id: believed", n, id)}
}

func countHeaders(n int) string {
	if n == 1 {
		return "1 Authentication-Results header"
	}
	return fmt.Sprintf("%d Authentication-Results headers", n)
}

func orQuoted(id string) string {
	if id == "" {
		return "no one"
	}
	return id
}

// resultsID is the authserv-id of an Authentication-Results header value,
// read leniently (comments and quotes dropped, any version after it), so
// that a header the sender wrote as "(x) MX.example.org 1;" or
// "\"mx.example.org\";" still counts as one claiming that id.
func resultsID(v string) string {
	head, _, _ := strings.Cut(v, ";")
	var b strings.Builder
	depth := 0
	for _, r := range head {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && r != '"':
			b.WriteRune(r)
		}
	}
	f := strings.Fields(b.String())
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ".")
}

// trustedResults reads our server's Authentication-Results header, if it
// may be believed (ReadResults), for a DKIM or SPF pass aligned with
// domain.
func trustedResults(r Results, id, domain string, dkimMode, spfMode dmarc.AlignmentMode, seen []string) (bool, string, []string) {
	if !r.Trusted {
		return false, "", append(seen, r.Why)
	}
	for _, r := range r.Results {
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
	return mode != dmarc.AlignmentStrict && OrgDomain(d) == OrgDomain(from)
}

// orgDomain is a domain's organisational domain (the public suffix plus
// one label): mail.example.co.uk → example.co.uk.
// OrgDomain is the organisational domain of d (lower case, as DNS knows
// it): its registrable part by the public suffix list, mail.example.co.uk
// → example.co.uk; d itself when the list has no answer.
func OrgDomain(d string) string {
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
	org := OrgDomain(domain)
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

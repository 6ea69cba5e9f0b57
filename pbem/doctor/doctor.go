// Package doctor checks what a mail domain publishes in DNS against what
// Gmail, Yahoo and Outlook ask of a sender of bulk mail since 2024-2025
// (`orrery mail doctor`, and the warnings of `orrery serve` at start): SPF
// naming the relay, the DKIM selector's key (matching the configured key
// when Orrery signs), DMARC with a policy and alignment with From, MX for
// the players' replies, and a reverse DNS name of the relay's address that
// resolves back to it. Each finding says, in plain words, what is wrong
// and the record to publish.
//
// DNS is asked through Resolver, so tests answer from a fake; a real run
// uses the system's resolver (net.DefaultResolver) and needs the domain's
// records to be visible from where it runs.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"orrery/pbem/dkim"
)

// Resolver is what the checks ask of DNS; *net.Resolver is one.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
	LookupHost(ctx context.Context, host string) ([]string, error)
	LookupAddr(ctx context.Context, addr string) ([]string, error)
}

// Input is what is checked.
type Input struct {
	// Domain is the From address's domain.
	Domain string
	// Relay is the SMTP relay's host (smtp.server without the port):
	// its address must have a reverse DNS name. A relay on this machine
	// (localhost) says nothing of the address mail leaves from: RelayIP
	// then names it, or the check is skipped.
	Relay   string
	RelayIP string
	// Selector is the DKIM selector to look up (dkim.selector, or the
	// relay's); Signer, when Orrery signs, is the key the published one
	// must match.
	Selector string
	Signer   *dkim.Signer
	// SignDomain is the DKIM d= domain (default Domain).
	SignDomain string
}

// Finding is one check's result.
type Finding struct {
	Check string // SPF, DKIM, DMARC, MX, PTR
	// OK is false when the record is missing or wrong; Required, when
	// Gmail's bulk-sender rules ask for it (MX is Orrery's own need).
	OK, Required bool
	// Skipped: it could not be checked from here (Say says why).
	Skipped bool
	Say     string // in plain words
	Publish string // the record to publish, "" when nothing is to be done
}

// Report is every finding, in the order checked.
type Report struct{ Findings []Finding }

// OK says whether every rule Gmail sets for bulk senders is met.
func (r Report) OK() bool {
	for _, f := range r.Findings {
		if f.Required && !f.OK && !f.Skipped {
			return false
		}
	}
	return true
}

// Problems are the findings that are not OK, for serve's warnings.
func (r Report) Problems() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if !f.OK && !f.Skipped {
			out = append(out, f)
		}
	}
	return out
}

// Write prints the report for the operator.
func (r Report) Write(w io.Writer) {
	for _, f := range r.Findings {
		mark := "ok     "
		switch {
		case f.Skipped:
			mark = "skipped"
		case !f.OK && f.Required:
			mark = "MISSING"
		case !f.OK:
			mark = "warning"
		}
		fmt.Fprintf(w, "%s %-5s %s\n", mark, f.Check, f.Say)
		if f.Publish != "" {
			fmt.Fprintf(w, "              publish: %s\n", f.Publish)
		}
	}
	if r.OK() {
		fmt.Fprintln(w, "\nThe domain meets Gmail's and Yahoo's rules for bulk senders (SPF, DKIM, DMARC, reverse DNS).")
	} else {
		fmt.Fprintln(w, "\nThe domain does not meet Gmail's and Yahoo's rules for bulk senders yet: publish the records above.")
	}
}

// Run makes every check.
func Run(ctx context.Context, r Resolver, in Input) Report {
	in.Domain = strings.ToLower(strings.TrimSuffix(in.Domain, "."))
	if in.SignDomain == "" {
		in.SignDomain = in.Domain
	}
	if in.Signer != nil && in.Selector == "" {
		in.Selector = in.Signer.Selector
	}
	relayIPs := relayAddrs(ctx, r, in)
	var rep Report
	rep.Findings = append(rep.Findings, spf(ctx, r, in, relayIPs), dkimKey(ctx, r, in), dmarc(ctx, r, in), mx(ctx, r, in), ptr(ctx, r, in, relayIPs))
	return rep
}

// notFound says whether err is DNS's "no such name / no record".
func notFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

func txt(ctx context.Context, r Resolver, name, prefix string) ([]string, error) {
	recs, err := r.LookupTXT(ctx, name)
	if err != nil && !notFound(err) {
		return nil, err
	}
	var out []string
	for _, t := range recs {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(t)), strings.ToLower(prefix)) {
			out = append(out, strings.TrimSpace(t))
		}
	}
	return out, nil
}

func local(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// relayAddrs are the addresses mail leaves from, as far as can be told.
func relayAddrs(ctx context.Context, r Resolver, in Input) []string {
	if in.RelayIP != "" {
		return []string{in.RelayIP}
	}
	if in.Relay == "" || local(in.Relay) {
		return nil
	}
	if net.ParseIP(in.Relay) != nil {
		return []string{in.Relay}
	}
	ips, _ := r.LookupHost(ctx, in.Relay)
	return ips
}

func spf(ctx context.Context, r Resolver, in Input, relay []string) Finding {
	f := Finding{Check: "SPF", Required: true}
	suggest := "v=spf1 mx ~all"
	if len(relay) > 0 {
		suggest = "v=spf1 mx " + spfIP(relay[0]) + " ~all"
	}
	recs, err := txt(ctx, r, in.Domain, "v=spf1")
	switch {
	case err != nil:
		f.Skipped, f.Say = true, fmt.Sprintf("could not look up the TXT records of %s: %v", in.Domain, err)
		return f
	case len(recs) == 0:
		f.Say = fmt.Sprintf("%s publishes no SPF record: receivers cannot tell which servers may send its mail.", in.Domain)
		f.Publish = fmt.Sprintf("%s TXT \"%s\"", in.Domain, suggest)
		return f
	case len(recs) > 1:
		f.Say = fmt.Sprintf("%s publishes %d SPF records: receivers then treat SPF as broken (RFC 7208 4.5). Merge them into one.", in.Domain, len(recs))
		f.Publish = fmt.Sprintf("%s TXT \"%s\"", in.Domain, suggest)
		return f
	}
	rec := recs[0]
	if len(relay) == 0 {
		f.OK, f.Say = true, fmt.Sprintf("%s publishes %q; the relay is on this machine, so whether it names the address mail leaves from is not checked (--relay-ip IP checks it).", in.Domain, rec)
		return f
	}
	if names, how := spfNames(ctx, r, in.Domain, rec, relay); names {
		f.OK, f.Say = true, fmt.Sprintf("%s publishes %q, which names the relay's address %s (%s).", in.Domain, rec, relay[0], how)
		return f
	}
	if strings.Contains(rec, "include:") || strings.Contains(rec, "redirect=") {
		f.OK, f.Say = true, fmt.Sprintf("%s publishes %q; the relay's address %s is not in it directly, but an include: may name it.", in.Domain, rec, relay[0])
		return f
	}
	f.Say = fmt.Sprintf("%s publishes %q, which does not name the relay's address %s: its mail fails SPF.", in.Domain, rec, relay[0])
	f.Publish = fmt.Sprintf("%s TXT \"%s\"", in.Domain, strings.Replace(rec, "v=spf1", "v=spf1 "+spfIP(relay[0]), 1))
	return f
}

func spfIP(ip string) string {
	if strings.Contains(ip, ":") {
		return "ip6:" + ip
	}
	return "ip4:" + ip
}

// spfNames says whether rec names one of ips directly: ip4:/ip6: (with a
// prefix length), a (the domain's addresses) or mx (its MX hosts').
func spfNames(ctx context.Context, r Resolver, domain, rec string, ips []string) (bool, string) {
	has := func(list []string) bool {
		for _, a := range list {
			for _, ip := range ips {
				if net.ParseIP(a).Equal(net.ParseIP(ip)) {
					return true
				}
			}
		}
		return false
	}
	for _, term := range strings.Fields(rec) {
		term = strings.TrimLeft(term, "+")
		switch {
		case strings.HasPrefix(term, "ip4:") || strings.HasPrefix(term, "ip6:"):
			v := term[4:]
			if !strings.Contains(v, "/") {
				if has([]string{v}) {
					return true, term
				}
				continue
			}
			if _, n, err := net.ParseCIDR(v); err == nil {
				for _, ip := range ips {
					if n.Contains(net.ParseIP(ip)) {
						return true, term
					}
				}
			}
		case term == "a":
			if a, _ := r.LookupHost(ctx, domain); has(a) {
				return true, "a"
			}
		case term == "mx":
			mxs, _ := r.LookupMX(ctx, domain)
			for _, m := range mxs {
				if a, _ := r.LookupHost(ctx, strings.TrimSuffix(m.Host, ".")); has(a) {
					return true, "mx"
				}
			}
		}
	}
	return false, ""
}

func dkimKey(ctx context.Context, r Resolver, in Input) Finding {
	f := Finding{Check: "DKIM", Required: true}
	if in.Selector == "" {
		f.Skipped = true
		f.Say = fmt.Sprintf("Orrery does not sign (no dkim: in the config) and no selector was given: your relay must sign with d=%s. Give its selector with --selector to check its key, or set dkim: to have Orrery sign.", in.Domain)
		return f
	}
	name := dkim.Name(in.Selector, in.SignDomain)
	recs, err := txt(ctx, r, name, "")
	if err != nil {
		f.Skipped, f.Say = true, fmt.Sprintf("could not look up %s: %v", name, err)
		return f
	}
	var key string
	for _, t := range recs {
		if strings.Contains(t, "p=") {
			key = t
		}
	}
	publish := ""
	if in.Signer != nil {
		publish = fmt.Sprintf("%s TXT \"%s\"", name, in.Signer.Record())
	}
	switch {
	case key == "":
		f.Say = fmt.Sprintf("no DKIM key is published at %s: receivers cannot verify the signatures.", name)
		if publish == "" {
			publish = fmt.Sprintf("%s TXT \"v=DKIM1; k=rsa; p=<the public key your relay signs with>\"", name)
		}
		f.Publish = publish
	case in.Signer != nil && !in.Signer.Matches(key):
		f.Say = fmt.Sprintf("the key published at %s is not the key of dkim.key_file: every signature fails. Publish this key (or set the key_file that matches).", name)
		f.Publish = publish
	case in.Signer != nil:
		f.OK, f.Say = true, fmt.Sprintf("%s publishes the key of dkim.key_file.", name)
	default:
		f.OK, f.Say = true, fmt.Sprintf("%s publishes a DKIM key.", name)
	}
	if in.SignDomain != in.Domain && !aligned(in.SignDomain, in.Domain, false) {
		f.OK = false
		f.Say += fmt.Sprintf(" But d=%s is not aligned with the From domain %s: DMARC does not count it.", in.SignDomain, in.Domain)
	}
	return f
}

// aligned is DMARC's identifier alignment, the organisational domain
// taken as the last two labels (a public suffix list is not at hand:
// co.uk-style domains are judged strict).
func aligned(a, b string, strict bool) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if a == b {
		return true
	}
	if strict {
		return false
	}
	org := func(d string) string {
		l := strings.Split(d, ".")
		if len(l) <= 2 {
			return d
		}
		return strings.Join(l[len(l)-2:], ".")
	}
	return org(a) == org(b)
}

func dmarc(ctx context.Context, r Resolver, in Input) Finding {
	f := Finding{Check: "DMARC", Required: true}
	name := "_dmarc." + in.Domain
	suggest := fmt.Sprintf("%s TXT \"v=DMARC1; p=none; rua=mailto:dmarc-reports@%s\"", name, in.Domain)
	recs, err := txt(ctx, r, name, "v=DMARC1")
	switch {
	case err != nil:
		f.Skipped, f.Say = true, fmt.Sprintf("could not look up %s: %v", name, err)
		return f
	case len(recs) == 0:
		f.Say = fmt.Sprintf("%s publishes no DMARC record: Gmail and Yahoo refuse bulk mail without one. p=none is enough to start; rua= gets you the receivers' reports.", in.Domain)
		f.Publish = suggest
		return f
	case len(recs) > 1:
		f.Say = fmt.Sprintf("%s publishes %d DMARC records: receivers then ignore them all. Keep one.", name, len(recs))
		f.Publish = suggest
		return f
	}
	tags := map[string]string{}
	for _, t := range strings.Split(recs[0], ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(t), "="); ok {
			tags[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	p := tags["p"]
	if p != "none" && p != "quarantine" && p != "reject" {
		f.Say = fmt.Sprintf("the DMARC record %q has no valid policy (p=none, quarantine or reject).", recs[0])
		f.Publish = suggest
		return f
	}
	if !aligned(in.SignDomain, in.Domain, tags["adkim"] == "s") {
		f.Say = fmt.Sprintf("DMARC asks for %s DKIM alignment, and the signing domain %s is not aligned with the From domain %s.", map[bool]string{true: "strict", false: "relaxed"}[tags["adkim"] == "s"], in.SignDomain, in.Domain)
		return f
	}
	f.OK = true
	f.Say = fmt.Sprintf("%s publishes %q: policy p=%s, DKIM alignment %s.", name, recs[0], p, map[bool]string{true: "strict", false: "relaxed"}[tags["adkim"] == "s"])
	if tags["rua"] == "" {
		f.Say += " It has no rua=: add one to receive the receivers' aggregate reports."
	}
	return f
}

func mx(ctx context.Context, r Resolver, in Input) Finding {
	f := Finding{Check: "MX"}
	mxs, err := r.LookupMX(ctx, in.Domain)
	if err != nil && !notFound(err) {
		f.Skipped, f.Say = true, fmt.Sprintf("could not look up the MX of %s: %v", in.Domain, err)
		return f
	}
	if len(mxs) == 0 {
		f.Say = fmt.Sprintf("%s has no MX record: players' replies, orders and bounces have nowhere to go.", in.Domain)
		f.Publish = fmt.Sprintf("%s MX 10 mail.%s.", in.Domain, in.Domain)
		return f
	}
	var hosts []string
	for _, m := range mxs {
		hosts = append(hosts, strings.TrimSuffix(m.Host, "."))
	}
	f.OK, f.Say = true, fmt.Sprintf("mail to %s goes to %s.", in.Domain, strings.Join(hosts, ", "))
	return f
}

func ptr(ctx context.Context, r Resolver, in Input, relay []string) Finding {
	f := Finding{Check: "PTR", Required: true}
	if len(relay) == 0 {
		f.Skipped = true
		f.Say = "the SMTP relay is on this machine: the address mail leaves from is not known here (--relay-ip IP checks its reverse DNS)."
		return f
	}
	ip := relay[0]
	names, err := r.LookupAddr(ctx, ip)
	if err != nil && !notFound(err) {
		f.Skipped, f.Say = true, fmt.Sprintf("could not look up the reverse DNS of %s: %v", ip, err)
		return f
	}
	if len(names) == 0 {
		f.Say = fmt.Sprintf("the relay's address %s has no reverse DNS name: Gmail refuses mail from such addresses. Ask whoever runs the address (your hosting provider) to set it.", ip)
		f.Publish = fmt.Sprintf("PTR of %s: mail.%s. (and mail.%s A %s)", ip, in.Domain, in.Domain, ip)
		return f
	}
	for _, n := range names {
		back, _ := r.LookupHost(ctx, strings.TrimSuffix(n, "."))
		for _, b := range back {
			if net.ParseIP(b).Equal(net.ParseIP(ip)) {
				f.OK, f.Say = true, fmt.Sprintf("the relay's address %s is named %s, which resolves back to it.", ip, strings.TrimSuffix(n, "."))
				return f
			}
		}
	}
	f.Say = fmt.Sprintf("the relay's address %s is named %s, but that name does not resolve back to %s: receivers do not trust such a name.", ip, strings.TrimSuffix(names[0], "."), ip)
	f.Publish = fmt.Sprintf("%s A %s", strings.TrimSuffix(names[0], "."), ip)
	return f
}

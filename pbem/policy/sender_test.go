package policy

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
)

// TestCheckSender holds every forgery of issue 14, and the genuine mails
// that must still pass.
func TestCheckSender(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	key := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	dns := pbemtest.DNS{
		"s1._domainkey.example.org":      key,
		"s1._domainkey.evil.example":     key,
		"_dmarc.example.org":             "v=DMARC1; p=reject; sp=reject",
		"_dmarc.strict.example":          "v=DMARC1; p=reject; adkim=s; aspf=s",
		"s1._domainkey.strict.example":   key,
		"_dmarc.relaxed.example":         "v=DMARC1; p=none",
		"_dmarc.flaky.example":           "TEMPFAIL",
		"_dmarc.keyflaky.example":        "v=DMARC1; p=quarantine",
		"s1._domainkey.keyflaky.example": "TEMPFAIL",
	}
	mail := func(from string, headers ...string) []byte {
		h := strings.Join(headers, "\r\n")
		if h != "" {
			h += "\r\n"
		}
		return []byte(h + "From: " + from + "\r\nTo: orrery@example.net\r\nSubject: [demo1 k7f3q] orders\r\nMessage-ID: <1@x>\r\n\r\nSETTLE Vega 5\r\n")
	}
	sign := func(domain string, raw []byte) []byte {
		var out bytes.Buffer
		if err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: "s1", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	const ours = "mx.example.net"
	dmarcCfg := Config{AuthServID: ours, SenderAuth: AuthDMARC}
	tests := []struct {
		name   string
		cfg    Config
		raw    []byte
		giveUp bool
		want   string // refuse, pass (the secret decides), aligned, or tempfail
	}{
		{"off trusts the From", Config{}, mail("ann@example.org"), false, "pass"},
		{"signed by the From domain", dmarcCfg, sign("example.org", mail("ann@example.org")), false, "aligned"},
		{"unsigned from a p=reject domain", dmarcCfg, mail("ann@example.org"), false, "refuse"},
		{"DKIM of another domain: valid but unaligned", dmarcCfg, sign("evil.example", mail("ann@example.org")), false, "refuse"},
		{"body changed after signing", dmarcCfg, bytes.Replace(sign("example.org", mail("ann@example.org")), []byte("Vega 5"), []byte("Vega 9"), 1), false, "refuse"},
		{"our server's SPF pass", dmarcCfg, mail("ann@example.org", "Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org"), false, "aligned"},
		{"our server's SPF pass for a subdomain aligns (relaxed)", dmarcCfg, mail("ann@example.org", "Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=bounce@mail.example.org"), false, "aligned"},
		{"our server's SPF pass of another domain", dmarcCfg, mail("ann@example.org", "Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=x@evil.example"), false, "refuse"},
		{"our server's DKIM pass of another domain", dmarcCfg, mail("ann@example.org", "Authentication-Results: "+ours+"; dkim=pass header.d=evil.example"), false, "refuse"},
		{"a pass the sender wrote below our server's fail", dmarcCfg, mail("ann@example.org",
			"Authentication-Results: "+ours+"; spf=fail smtp.mailfrom=ann@example.org",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org; dkim=pass header.d=example.org"), false, "refuse"},
		{"a pass with our id below another server's header", dmarcCfg, mail("ann@example.org",
			"Authentication-Results: mx.relay.example; spf=none",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org"), false, "refuse"},
		// Issue 39: an MTA that does not strip the headers that came with
		// the mail claiming our id. A second header with our id means
		// neither can be told from the sender's.
		{"two headers with our id, both passes", dmarcCfg, mail("ann@example.org",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org"), false, "refuse"},
		{"a pass forged below our server's header", dmarcCfg, mail("ann@example.org",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org",
			"Authentication-Results: (forged) "+strings.ToUpper(ours)+" 1; dkim=pass header.d=example.org"), false, "refuse"},
		// Alone, a forged header with our id is the topmost and the only
		// one: nothing in the mail tells it from our server's. Only the MTA
		// stripping it stops it (pbem/README.md; scripts/mailstack.sh's
		// Postfix, and TestForgedAuthResultsThroughPostfix in pbem/hostile).
		{"a forged header alone: believed, as the MTA's would be", dmarcCfg, mail("ann@example.org",
			"Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org"), false, "aligned"},
		{"another server's pass", dmarcCfg, mail("ann@example.org", "Authentication-Results: mx.evil.example; spf=pass smtp.mailfrom=ann@example.org"), false, "refuse"},
		{"without auth_serv_id the header counts for nothing", Config{SenderAuth: AuthDMARC},
			mail("ann@example.org", "Authentication-Results: "+ours+"; spf=pass smtp.mailfrom=ann@example.org"), false, "refuse"},
		{"no DMARC record: the secret decides", dmarcCfg, mail("ann@nodmarc.example"), false, "pass"},
		{"p=none: the secret decides", dmarcCfg, mail("ann@relaxed.example"), false, "pass"},
		{"subdomain under the organisation's sp=reject", dmarcCfg, mail("ann@mail.example.org"), false, "refuse"},
		{"subdomain signed by the organisation (relaxed)", dmarcCfg, sign("example.org", mail("ann@mail.example.org")), false, "aligned"},
		{"strict alignment wants the very domain", dmarcCfg, sign("strict.example", mail("ann@mail.strict.example")), false, "refuse"},
		{"strict mode without a record", Config{SenderAuth: AuthStrict}, mail("ann@nodmarc.example"), false, "refuse"},
		{"strict mode, signed", Config{SenderAuth: AuthStrict}, sign("example.org", mail("ann@example.org")), false, "aligned"},
		{"DNS failing: try later", dmarcCfg, mail("ann@flaky.example"), false, "tempfail"},
		{"DNS failing for too long: no record", dmarcCfg, mail("ann@flaky.example"), true, "pass"},
		{"DKIM key failing under quarantine: try later", dmarcCfg, sign("keyflaky.example", mail("ann@keyflaky.example")), false, "tempfail"},
		{"DKIM key failing for too long: no record", dmarcCfg, sign("keyflaky.example", mail("ann@keyflaky.example")), true, "pass"},
		{"no domain", dmarcCfg, mail("ann"), false, "refuse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := inmail.Parse(tc.raw, inmail.Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := CheckSender(context.Background(), tc.raw, m, tc.cfg, dns, tc.giveUp)
			got := "pass"
			switch {
			case v.TempFail:
				got = "tempfail"
			case v.Refuse:
				got = "refuse"
			case v.Aligned:
				got = "aligned"
			}
			if got != tc.want {
				t.Errorf("got %s, want %s: %+v", got, tc.want, v)
			}
			if v.Why == "" {
				t.Error("no reason given")
			}
		})
	}
}

// TestReadResults: which Authentication-Results header is believed, and the
// sentence that says why (for the log and `orrery mail check`).
func TestReadResults(t *testing.T) {
	const ours = "mx.example.net"
	pass := "Authentication-Results: " + ours + "; spf=pass smtp.mailfrom=ann@example.org"
	hdr := func(lines ...string) []string {
		var v []string
		for _, l := range lines {
			v = append(v, strings.TrimPrefix(l, "Authentication-Results: "))
		}
		return v
	}
	for _, tc := range []struct {
		name    string
		id      string
		headers []string
		trusted bool
		why     string // a part of Why
	}{
		{"ours alone, topmost", ours, hdr(pass), true, "the only one with its id: believed"},
		{"ours on top of another server's", ours, hdr(pass, "Authentication-Results: mx.relay.example; spf=none"), true, "(1 of 2)"},
		{"ours twice", ours, hdr(pass, pass), false, "headers 1, 2 of 2, from the top): the MTA did not strip"},
		{"ours, and a forged one after a comment", ours, hdr(pass, "Authentication-Results: (x) MX.Example.Net; spf=pass"), false, "the MTA did not strip"},
		{"ours, and a forged one quoted", ours, hdr("Authentication-Results: mx.relay.example; spf=none", pass, "Authentication-Results: \""+ours+"\"; spf=pass"), false, "headers 2, 3 of 3"},
		{"ours below another's", ours, hdr("Authentication-Results: mx.relay.example; spf=none", pass), false, "header 2 of 2, below mx.relay.example's"},
		{"none of ours", ours, hdr("Authentication-Results: mx.relay.example; spf=pass"), false, "none with mx.example.net's id"},
		{"ours unreadable", ours, hdr("Authentication-Results: " + ours + " 7; spf=pass"), false, "cannot be read"},
		{"no header", ours, nil, false, "no Authentication-Results header"},
		{"no auth_serv_id", "", hdr(pass), false, "security.auth_serv_id is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ReadResults(tc.headers, tc.id)
			if r.Trusted != tc.trusted || !strings.Contains(r.Why, tc.why) {
				t.Errorf("trusted %v, %q; want %v and %q", r.Trusted, r.Why, tc.trusted, tc.why)
			}
		})
	}
}

// TestCheckSenderSaysTheMTADidNotStrip: the verdict's Why names the cause,
// so that the operator knows what to fix.
func TestCheckSenderSaysTheMTADidNotStrip(t *testing.T) {
	raw := []byte("Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=ann@example.org\r\n" +
		"Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=ann@example.org\r\n" +
		"From: ann@example.org\r\nSubject: x\r\nMessage-ID: <1@x>\r\n\r\nSETTLE Vega 5\r\n")
	m, err := inmail.Parse(raw, inmail.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := CheckSender(context.Background(), raw, m, Config{AuthServID: "mx.example.net", SenderAuth: AuthStrict}, pbemtest.DNS{}, false)
	if !v.Refuse || !strings.Contains(v.Why, "the MTA did not strip") || !strings.Contains(v.AuthResults, "none is believed") {
		t.Errorf("refuse %v, why %q, auth results %q", v.Refuse, v.Why, v.AuthResults)
	}
}

package doctor

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net"
	"strings"
	"testing"

	"orrery/pbem/dkim"
)

// fake answers DNS from maps; a name it does not hold is NXDOMAIN.
type fake struct {
	txt  map[string][]string
	mx   map[string][]*net.MX
	host map[string][]string
	addr map[string][]string
}

func nx(name string) error { return &net.DNSError{Err: "no such host", Name: name, IsNotFound: true} }

func (f fake) LookupTXT(_ context.Context, n string) ([]string, error) {
	if v, ok := f.txt[n]; ok {
		return v, nil
	}
	return nil, nx(n)
}
func (f fake) LookupMX(_ context.Context, n string) ([]*net.MX, error) {
	if v, ok := f.mx[n]; ok {
		return v, nil
	}
	return nil, nx(n)
}
func (f fake) LookupHost(_ context.Context, n string) ([]string, error) {
	if v, ok := f.host[n]; ok {
		return v, nil
	}
	return nil, nx(n)
}
func (f fake) LookupAddr(_ context.Context, n string) ([]string, error) {
	if v, ok := f.addr[n]; ok {
		return v, nil
	}
	return nil, nx(n)
}

func TestDoctor(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	s, _ := dkim.New("example.org", "orrery", key)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	o, _ := dkim.New("example.org", "orrery", other)
	good := func() fake {
		return fake{
			txt: map[string][]string{"example.org": {"v=spf1 mx ip4:203.0.113.5 ~all", "google-site-verification=x"},
				"orrery._domainkey.example.org": {s.Record()},
				"_dmarc.example.org":            {"v=DMARC1; p=none; rua=mailto:dmarc@example.org"}},
			mx:   map[string][]*net.MX{"example.org": {{Host: "mail.example.org.", Pref: 10}}},
			host: map[string][]string{"smtp.example.org": {"203.0.113.5"}, "mail.example.org": {"203.0.113.5"}},
			addr: map[string][]string{"203.0.113.5": {"mail.example.org."}},
		}
	}
	in := Input{Domain: "example.org", Relay: "smtp.example.org", Signer: s}
	for _, c := range []struct {
		name   string
		break_ func(f fake)
		check  string // the finding that must fail, "" for none
		want   string // in what it says or asks to publish
	}{
		{"all published", func(fake) {}, "", "meets Gmail"},
		{"no SPF", func(f fake) { f.txt["example.org"] = []string{"google-site-verification=x"} }, "SPF", `example.org TXT "v=spf1 mx ip4:203.0.113.5 ~all"`},
		{"two SPF", func(f fake) { f.txt["example.org"] = []string{"v=spf1 mx ~all", "v=spf1 a ~all"} }, "SPF", "2 SPF records"},
		{"SPF without the relay", func(f fake) { f.txt["example.org"] = []string{"v=spf1 ip4:198.51.100.1 -all"} }, "SPF", "does not name the relay's address 203.0.113.5"},
		{"no DKIM key", func(f fake) { delete(f.txt, "orrery._domainkey.example.org") }, "DKIM", "orrery._domainkey.example.org TXT \"" + s.Record()},
		{"another DKIM key", func(f fake) { f.txt["orrery._domainkey.example.org"] = []string{o.Record()} }, "DKIM", "not the key of dkim.key_file"},
		{"no DMARC", func(f fake) { delete(f.txt, "_dmarc.example.org") }, "DMARC", `_dmarc.example.org TXT "v=DMARC1; p=none; rua=mailto:`},
		{"DMARC without policy", func(f fake) { f.txt["_dmarc.example.org"] = []string{"v=DMARC1; rua=mailto:x@example.org"} }, "DMARC", "no valid policy"},
		{"no MX", func(f fake) { delete(f.mx, "example.org") }, "MX", "example.org MX 10 mail.example.org."},
		{"no PTR", func(f fake) { delete(f.addr, "203.0.113.5") }, "PTR", "has no reverse DNS name"},
		{"PTR not confirmed", func(f fake) { f.addr["203.0.113.5"] = []string{"host.provider.example."} }, "PTR", "does not resolve back"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := good()
			c.break_(f)
			rep := Run(context.Background(), f, in)
			var out bytes.Buffer
			rep.Write(&out)
			for _, fd := range rep.Findings {
				failing := !fd.OK && !fd.Skipped
				if failing != (fd.Check == c.check) {
					t.Errorf("%s: ok %v, skipped %v: %s", fd.Check, fd.OK, fd.Skipped, fd.Say)
				}
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("the report does not say %q:\n%s", c.want, out.String())
			}
			// MX is Orrery's need, not Gmail's rule.
			if wantOK := c.check == "" || c.check == "MX"; rep.OK() != wantOK {
				t.Errorf("OK() = %v, want %v:\n%s", rep.OK(), wantOK, out.String())
			}
		})
	}
	// A relay on this machine: SPF and PTR cannot see its address.
	rep := Run(context.Background(), good(), Input{Domain: "example.org", Relay: "127.0.0.1", Signer: s})
	if !rep.OK() || !rep.Findings[4].Skipped {
		t.Errorf("a local relay: %+v", rep.Findings)
	}
	// Without a selector the DKIM key is not checked, and that is said.
	rep = Run(context.Background(), good(), Input{Domain: "example.org", Relay: "smtp.example.org"})
	if !rep.Findings[1].Skipped || !strings.Contains(rep.Findings[1].Say, "--selector") {
		t.Errorf("no selector: %+v", rep.Findings[1])
	}
}

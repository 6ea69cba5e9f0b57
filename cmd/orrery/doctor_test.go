package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orrery/pbem/dkim"
)

// fakeDNS answers mail doctor's questions from maps; a name it does not
// hold is NXDOMAIN. No test asks real DNS.
type fakeDNS struct {
	txt  map[string][]string
	mx   map[string][]*net.MX
	host map[string][]string
	addr map[string][]string
}

func nxdomain(name string) error {
	return &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func lookup[T any](m map[string]T, n string) (T, error) {
	if v, ok := m[n]; ok {
		return v, nil
	}
	var zero T
	return zero, nxdomain(n)
}

func (f fakeDNS) LookupTXT(_ context.Context, n string) ([]string, error) { return lookup(f.txt, n) }
func (f fakeDNS) LookupMX(_ context.Context, n string) ([]*net.MX, error) { return lookup(f.mx, n) }
func (f fakeDNS) LookupHost(_ context.Context, n string) ([]string, error) {
	return lookup(f.host, n)
}
func (f fakeDNS) LookupAddr(_ context.Context, n string) ([]string, error) {
	return lookup(f.addr, n)
}

// orrery mail doctor, as the operator runs it: read the config (from,
// smtp.server, dkim.key_file), ask DNS, print each record that is missing
// with the record to publish, and exit non-zero until Gmail's bulk-sender
// rules are met. An empty domain names all five; a fully published one
// passes.
func TestMailDoctorCLI(t *testing.T) {
	dir := t.TempDir()
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "dkim.pem")
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	signer, err := dkim.New("example.org", "orrery", key)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte("from: \"Orrery <orrery@example.org>\"\nsmtp:\n  server: smtp.example.org:587\ndkim:\n  selector: orrery\n  key_file: "+keyFile+"\n"), 0o600)
	published := fakeDNS{
		txt: map[string][]string{"example.org": {"v=spf1 mx ip4:203.0.113.5 ~all"},
			"orrery._domainkey.example.org": {signer.Record()},
			"_dmarc.example.org":            {"v=DMARC1; p=none; rua=mailto:dmarc@example.org"}},
		mx:   map[string][]*net.MX{"example.org": {{Host: "mail.example.org.", Pref: 10}}},
		host: map[string][]string{"smtp.example.org": {"203.0.113.5"}, "mail.example.org": {"203.0.113.5"}},
		addr: map[string][]string{"203.0.113.5": {"mail.example.org."}},
	}
	// Nothing published but the relay's own address.
	empty := fakeDNS{host: map[string][]string{"smtp.example.org": {"203.0.113.5"}}}
	doctor := func(r fakeDNS) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, resolver: r}
		err := run(context.Background(), e, []string{"mail", "doctor", "--config", cfg})
		return out.String(), err
	}

	out, err := doctor(empty)
	if err == nil || !strings.Contains(err.Error(), "example.org does not meet the bulk-sender rules") {
		t.Errorf("mail doctor on an empty domain: err %v, want a non-zero exit\n%s", err, out)
	}
	for _, want := range []string{
		"MISSING SPF",
		`publish: example.org TXT "v=spf1 mx ip4:203.0.113.5 ~all"`,
		"MISSING DKIM",
		`publish: orrery._domainkey.example.org TXT "` + signer.Record(),
		"MISSING DMARC",
		`publish: _dmarc.example.org TXT "v=DMARC1; p=none; rua=mailto:`,
		"warning MX", "publish: example.org MX 10 mail.example.org.",
		"MISSING PTR", "203.0.113.5 has no reverse DNS name",
		"does not meet Gmail's and Yahoo's rules",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("mail doctor on an empty domain does not say %q:\n%s", want, out)
		}
	}

	out, err = doctor(published)
	if err != nil {
		t.Errorf("mail doctor on a domain that publishes everything: %v\n%s", err, out)
	}
	if strings.Contains(out, "MISSING") || strings.Contains(out, "warning") || !strings.Contains(out, "The domain meets Gmail's and Yahoo's rules") {
		t.Errorf("mail doctor on a domain that publishes everything:\n%s", out)
	}

	// One record missing: only it is named, and the exit is non-zero.
	delete(published.txt, "_dmarc.example.org")
	out, err = doctor(published)
	if err == nil || !strings.Contains(out, "MISSING DMARC") || strings.Count(out, "MISSING") != 1 {
		t.Errorf("mail doctor without DMARC: err %v\n%s", err, out)
	}
}

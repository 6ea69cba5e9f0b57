package config

import (
	"errors"
	"fmt"
	"strings"

	"orrery/pbem/dkim"
)

// DKIM is in-process DKIM signing of the bot's mail (pbem/dkim), off
// unless set: for a host whose relay does not sign its domain, and for
// serve --embedded. Publish the key's record (orrery mail doctor prints
// it) at SELECTOR._domainkey.DOMAIN before turning it on: a signature
// that verifiers cannot check counts as none.
type DKIM struct {
	// Domain is the signing domain, d= (default: the From address's
	// domain, which DMARC alignment asks for).
	Domain string `yaml:"domain"`
	// Selector names the key, s=: "orrery" publishes it at
	// orrery._domainkey.DOMAIN.
	Selector string `yaml:"selector"`
	// KeyFile is the PEM private key: RSA-2048 (openssl genpkey
	// -algorithm RSA -pkeyopt rsa_keygen_bits:2048) or Ed25519 (openssl
	// genpkey -algorithm ed25519).
	KeyFile string `yaml:"key_file"`
}

// On says whether signing is asked for.
func (d DKIM) On() bool { return d.Selector != "" || d.KeyFile != "" || d.Domain != "" }

// Signer loads the key, for a From address of fromDomain; nil, nil when
// signing is off.
func (d DKIM) Signer(fromDomain string) (*dkim.Signer, error) {
	if !d.On() {
		return nil, nil
	}
	if d.Selector == "" || d.KeyFile == "" {
		return nil, errors.New("dkim: selector and key_file are both needed to sign")
	}
	dom := d.Domain
	if dom == "" {
		dom = fromDomain
	}
	s, err := dkim.Load(dom, d.Selector, d.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("dkim.key_file: %w", err)
	}
	return s, nil
}

// checkDKIM checks the dkim keys; the key itself is read when the daemon
// starts.
func (c *Config) checkDKIM() error {
	d := c.DKIM
	if !d.On() {
		return nil
	}
	if d.Selector == "" || d.KeyFile == "" {
		return errors.New("dkim: selector and key_file are both needed to sign")
	}
	if strings.ContainsAny(d.Selector, " ;=") || strings.ContainsAny(d.Domain, " ;=") {
		return fmt.Errorf("dkim: selector %q or domain %q is not a DNS name", d.Selector, d.Domain)
	}
	return nil
}

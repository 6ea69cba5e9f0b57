// Package dkim signs the daemon's outgoing mail with DKIM (RFC 6376), in
// process, with emersion/go-msgauth's signer: for hosts whose relay does
// not sign their domain, and for `orrery serve --embedded`, which has no
// relay at all. Gmail and Yahoo ask a bulk sender for a DKIM signature
// aligned with its From domain; without one, reports land in spam.
//
// The signature covers the headers a reader trusts and a filter acts on
// (Headers): From, Subject, Date, Message-ID, To, the List-* headers of
// one-click unsubscribe, and the threading and MIME headers. A header in
// that list that a mail lacks is signed as absent, so a List-Unsubscribe
// added on the way fails the signature as surely as one altered.
// Canonicalization is relaxed/relaxed, which survives the whitespace
// changes relays are allowed; the caller adds the signature after every
// other header, and nothing may refold a signed header afterwards.
package dkim

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// Headers are the header fields signed, in the order of the h= tag.
var Headers = []string{
	"From", "Subject", "Date", "Message-ID", "To", "Cc", "Reply-To",
	"List-Unsubscribe", "List-Unsubscribe-Post", "List-Id",
	"In-Reply-To", "References", "MIME-Version", "Content-Type", "Auto-Submitted",
}

// Signer signs mail for one domain with one selector's key.
type Signer struct {
	Domain, Selector string
	key              crypto.Signer
}

// New returns a signer of domain with key (an *rsa.PrivateKey of at least
// 1024 bits, 2048 advised, or an ed25519.PrivateKey).
func New(domain, selector string, key crypto.Signer) (*Signer, error) {
	if domain == "" || selector == "" {
		return nil, errors.New("dkim: a domain and a selector are needed")
	}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if k == nil {
			return nil, errors.New("dkim: no key")
		}
		if k.N.BitLen() < 1024 {
			return nil, fmt.Errorf("dkim: an RSA key of %d bits is too short (verifiers refuse under 1024; use 2048)", k.N.BitLen())
		}
	case ed25519.PrivateKey:
	default:
		return nil, fmt.Errorf("dkim: a %T key cannot sign (use RSA-2048 or Ed25519)", key)
	}
	return &Signer{Domain: strings.ToLower(domain), Selector: selector, key: key}, nil
}

// Load reads a PEM private key (PKCS #1 "RSA PRIVATE KEY" or PKCS #8
// "PRIVATE KEY", RSA or Ed25519: what `openssl genpkey` writes) from file.
func Load(domain, selector, file string) (*Signer, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("dkim key: %w", err)
	}
	key, err := ParseKey(data)
	if err != nil {
		return nil, fmt.Errorf("dkim key %s: %w", file, err)
	}
	return New(domain, selector, key)
}

// ParseKey reads a PEM private key.
func ParseKey(data []byte) (crypto.Signer, error) {
	b, _ := pem.Decode(data)
	if b == nil {
		return nil, errors.New("no PEM block: the file must hold a private key as openssl writes it")
	}
	switch b.Type {
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(b.Bytes)
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
		if err != nil {
			return nil, err
		}
		s, ok := k.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("a %T key cannot sign", k)
		}
		return s, nil
	}
	return nil, fmt.Errorf("a PEM block of type %q is not a private key", b.Type)
}

// Sign returns the DKIM-Signature header field's value for msg (a whole
// message, CRLF line ends), folded, without the field name and without
// the final CRLF: what the caller adds as the header field
// "DKIM-Signature: " + value.
func (s *Signer) Sign(msg []byte) (string, error) {
	sg, err := dkim.NewSigner(&dkim.SignOptions{Domain: s.Domain, Selector: s.Selector, Signer: s.key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: Headers})
	if err != nil {
		return "", fmt.Errorf("dkim: %w", err)
	}
	if _, err := sg.Write(msg); err != nil {
		sg.Close()
		return "", fmt.Errorf("dkim: %w", err)
	}
	if err := sg.Close(); err != nil {
		return "", fmt.Errorf("dkim: sign: %w", err)
	}
	v := strings.TrimSuffix(sg.Signature(), "\r\n")
	v = strings.TrimPrefix(v, "DKIM-Signature:")
	return strings.TrimPrefix(v, " "), nil
}

// SignMessage returns msg with its DKIM-Signature prepended.
func (s *Signer) SignMessage(msg []byte) ([]byte, error) {
	v, err := s.Sign(msg)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("DKIM-Signature: " + v + "\r\n")
	b.Write(msg)
	return b.Bytes(), nil
}

// Name is the DNS name of the selector's key record.
func (s *Signer) Name() string { return Name(s.Selector, s.Domain) }

// Name is the DNS name of selector's key record under domain.
func Name(selector, domain string) string { return selector + "._domainkey." + domain }

// Record is the TXT record to publish at Name: "v=DKIM1; k=rsa; p=...".
func (s *Signer) Record() string { return Record(s.key.Public()) }

// Record is the TXT record that publishes pub.
func Record(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		der, _ := x509.MarshalPKIXPublicKey(k)
		return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der)
	case ed25519.PublicKey:
		return "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(k)
	}
	return ""
}

// Public is the signer's public key.
func (s *Signer) Public() crypto.PublicKey { return s.key.Public() }

// Matches says whether the TXT record txt (the key record as published)
// holds this signer's public key.
func (s *Signer) Matches(txt string) bool {
	return publicPart(txt) != "" && publicPart(txt) == publicPart(s.Record())
}

// publicPart is the p= tag of a key record, whitespace taken out.
func publicPart(txt string) string {
	for _, tag := range strings.Split(txt, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(tag), "=")
		if ok && strings.TrimSpace(k) == "p" {
			return strings.Join(strings.Fields(v), "")
		}
	}
	return ""
}

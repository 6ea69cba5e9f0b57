package pbemtest

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

// Part is the first part of the raw mail of media type want ("text/plain",
// "image/png"), found through nested multiparts and decoded from its
// transfer encoding; false when the mail has none or does not parse.
func Part(raw []byte, want string) ([]byte, bool) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, false
	}
	return findPart(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body, want)
}

// PlainText is the mail's text/plain part as a player's client shows it:
// decoded, with "\n" line ends ("" when it has none).
func PlainText(raw []byte) (string, bool) {
	b, ok := Part(raw, "text/plain")
	return strings.ReplaceAll(string(b), "\r\n", "\n"), ok
}

func findPart(ctype, enc string, body io.Reader, want string) ([]byte, bool) {
	mt, params, err := mime.ParseMediaType(ctype)
	if ctype == "" {
		mt, err = "text/plain", nil // RFC 2045's default
	}
	if err != nil {
		return nil, false
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err != nil {
				return nil, false
			}
			if b, ok := findPart(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, want); ok {
				return b, true
			}
		}
	}
	if mt != want {
		return nil, false
	}
	switch strings.ToLower(enc) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	return b, err == nil
}

// Understood is the order lines an ack lists under heading ("As I
// understood them:", or its Russian "Как я их понял:"), trimmed, up to
// the blank line that ends the list; false when the ack has no such list.
func Understood(ack, heading string) ([]string, bool) {
	i := strings.Index(ack, heading)
	if i < 0 {
		return nil, false
	}
	list, _, _ := strings.Cut(ack[i:], "\n\n")
	var got []string
	for _, l := range strings.Split(list, "\n")[1:] {
		got = append(got, strings.TrimSpace(l))
	}
	return got, true
}

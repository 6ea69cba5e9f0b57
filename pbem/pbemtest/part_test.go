package pbemtest

import (
	"slices"
	"testing"
)

func TestPartFindsAndDecodes(t *testing.T) {
	raw := []byte("From: a@x\r\nContent-Type: multipart/mixed; boundary=\"o\"\r\n\r\n" +
		"--o\r\nContent-Type: multipart/alternative; boundary=\"i\"\r\n\r\n" +
		"--i\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"PUSH =D0=B4=D0=B0\r\nline two that is soft=\r\n broken\r\n--i\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--i--\r\n" +
		"--o\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw==\r\n--o--\r\n")
	if text, ok := PlainText(raw); !ok || text != "PUSH да\nline two that is soft broken" {
		t.Errorf("PlainText = %q, %v", text, ok)
	}
	if png, ok := Part(raw, "image/png"); !ok || string(png) != "\x89PNG" {
		t.Errorf("image/png = %q, %v", png, ok)
	}
	if _, ok := Part(raw, "text/calendar"); ok {
		t.Error("found a part the mail does not have")
	}
}

func TestUnderstood(t *testing.T) {
	ack := "Hello ann,\n\nYour orders are accepted.\nAs I understood them:\n  PUSH 2\n  SAY hi\n\nDeadline: Monday"
	if got, ok := Understood(ack, "As I understood them:"); !ok || !slices.Equal(got, []string{"PUSH 2", "SAY hi"}) {
		t.Errorf("Understood = %q, %v", got, ok)
	}
	if _, ok := Understood(ack, "Как я их понял:"); ok {
		t.Error("found a heading the ack does not have")
	}
}

// A mail without a Content-Type is text/plain (RFC 2045).
func TestPartOfAPlainMail(t *testing.T) {
	if text, ok := PlainText([]byte("From: a@x\r\nSubject: hi\r\n\r\nPUSH 2\r\n")); !ok || text != "PUSH 2\n" {
		t.Errorf("PlainText = %q, %v", text, ok)
	}
}

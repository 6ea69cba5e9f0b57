package outbox

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"testing"
)

// Outgoing headers stay within RFC 5322: References (a player's thread,
// whatever its ids) folded, deduplicated, without ids that are not plain
// printable ASCII of sane length; no header line over 998 characters,
// whatever the subject.
func TestHeadersBounded(t *testing.T) {
	var refs []string
	for i := range 40 {
		refs = append(refs, fmt.Sprintf("CAF%032d-%d@mail.gmail.com", i, i))
	}
	refs = append(refs, refs[3], "<"+refs[3]+">", strings.Repeat("x", 900)+"@evil.example", "bad\x01id@evil.example",
		"caf\u00e9@evil.example", "no-at-sign", "two words@evil.example", "", "<>", "a<b@evil.example")
	for _, subject := range []string{"Re: " + strings.Repeat("long subject ", 400), "Re: " + strings.Repeat("тема письма ", 300)} {
		m := Mail{MessageID: "id1.orrery@pbem.test", From: "Orrery <orrery@pbem.test>", To: []string{"ann@example.org"},
			Subject: subject, Text: "hello\n", InReplyTo: "bad\x01id@evil.example", References: refs}
		msg, err := Compose(m)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := msg.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(b.String(), "\r\n\r\n")
		for _, l := range strings.Split(head, "\r\n") {
			if len(l) > 998 {
				t.Errorf("a header line of %d characters: %.60q", len(l), l)
			}
			if strings.HasPrefix(l, "References:") && len(l) > 78 {
				t.Errorf("References not folded: %d characters", len(l))
			}
		}
		pm, err := mail.ReadMessage(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Fields(pm.Header.Get("References"))
		if len(got) != 40 {
			t.Errorf("References keeps %d ids, want the 40 good ones once each: %q", len(got), got)
		}
		seen := map[string]bool{}
		for _, id := range got {
			if seen[id] || len(id) > 252 || !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, ">") {
				t.Errorf("id %q kept (twice: %v)", id, seen[id])
			}
			seen[id] = true
		}
		if v := pm.Header.Get("In-Reply-To"); v != "" {
			t.Errorf("a hostile In-Reply-To kept: %q", v)
		}
	}
}

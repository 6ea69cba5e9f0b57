package templates

import (
	"strings"
	"testing"

	"orrery/engine/lang"
)

// TestFooterWithoutGame renders every kind of mail as an answer that
// concerns no game (HELP, LIST, RULES, SETTINGS, MY GAMES, a digest, a
// refusal of a mail that named no game), with and without a secret at
// hand: the footer must not ask the reader to keep a subject tag, since
// there is none, and must not show an empty one.
func TestFooterWithoutGame(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	keep := map[lang.Tag]string{lang.English: "keep", lang.Russian: "оставив"}
	help := map[lang.Tag]string{lang.English: "Send HELP for the commands.", lang.Russian: "Пришлите HELP"}
	for _, kind := range Kinds() {
		for _, tag := range []lang.Tag{lang.English, lang.Russian} {
			for _, secret := range []string{"", "k7f3q"} {
				d := sample("")
				d.Game, d.Secret, d.Lang = "", secret, tag
				m, err := set.Render(kind, d)
				if err != nil {
					t.Fatalf("%s (%s): %v", kind, tag, err)
				}
				for part, body := range map[string]string{"text": m.Text, "html": m.HTML} {
					flat := strings.Join(strings.Fields(body), " ")
					if strings.Contains(flat, "[]") || strings.Contains(flat, keep[tag]+" in the subject") ||
						strings.Contains(flat, keep[tag]+" в теме") || strings.Contains(flat, keep[tag]+" [") {
						t.Errorf("%s (%s, secret %q), %s part: a footer about a subject tag with no game:\n%s", kind, tag, secret, part, body)
					}
				}
				switch kind {
				case Help, List, Rules, Settings, MyGames, Digest:
					if !strings.Contains(m.HTML, help[tag]) {
						t.Errorf("%s (%s): the HTML footer does not point to HELP:\n%s", kind, tag, m.HTML)
					}
				}
			}
		}
	}
}

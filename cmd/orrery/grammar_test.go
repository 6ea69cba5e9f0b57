package main

import (
	"bytes"
	"context"
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"

	"orrery/engine/lang"
	"orrery/games"
)

// TestDemoMailsReadWell (issue 19): every mail of a bot game of each
// ruleset, as the players get it (the text part, decoded), says "1
// victory" and "an engine module": no count with a plural noun, no "(s)",
// no article that does not fit the sound after it.
func TestDemoMailsReadWell(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game by mail for every ruleset")
	}
	for _, rs := range games.All() {
		name := rs.Info().Name
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard, rulesets: games.All()}
			if err := run(context.Background(), e, []string{"demo", "--ruleset", name, "-v", "--turns", "12"}); err != nil {
				t.Fatalf("demo: %v\n%s", err, out.String())
			}
			texts := mailTexts(t, out.String())
			if len(texts) < 5 {
				t.Fatalf("only %d mail texts found in the demo's output", len(texts))
			}
			t.Logf("%d mail texts", len(texts))
			seen := map[string]bool{}
			for _, text := range texts {
				for _, slip := range lang.Check(text) {
					if !seen[slip] {
						seen[slip] = true
						t.Errorf("a mail: %s", slip)
					}
				}
			}
		})
	}
}

// mailTexts finds the quoted-printable text/plain parts of the mails the
// demo prints with -v, decoded.
func mailTexts(t *testing.T, out string) []string {
	t.Helper()
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	var texts []string
	for i := 0; i < len(lines); i++ {
		if lines[i] != "Content-Transfer-Encoding: quoted-printable" || i+1 >= len(lines) ||
			!strings.HasPrefix(lines[i+1], "Content-Type: text/plain") {
			continue
		}
		j := i + 2
		for j < len(lines) && lines[j] != "" {
			j++
		}
		var body []string
		for j++; j < len(lines) && !strings.HasPrefix(lines[j], "--"); j++ {
			body = append(body, lines[j])
		}
		b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(strings.Join(body, "\r\n"))))
		if err != nil {
			t.Fatalf("decode a text part: %v", err)
		}
		texts = append(texts, string(b))
		i = j
	}
	return texts
}

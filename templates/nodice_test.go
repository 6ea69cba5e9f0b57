package templates

import (
	"strings"
	"testing"

	"orrery/engine/lang"
)

// TestReportWithoutDice: a step that rolled no die the reader can see keeps,
// of the dice check, only the seed (so the reader can check it against the
// commitment they were sent) and the commitment to the next step's seed (so
// the chain goes on), in both parts and both languages; a step with dice
// keeps the whole check.
func TestReportWithoutDice(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	gone := map[lang.Tag][]string{
		lang.English: {"CHECKING THE DICE", "Checking the dice", "sha256sum", "orrery dice", "Commitment published before it",
			"The digest of the orders", "Last orders in"},
		lang.Russian: {"ПРОВЕРКА КУБИКОВ", "Проверка кубиков", "sha256sum", "orrery dice", "Обязательство, опубликованное до него"},
	}
	for _, tag := range []lang.Tag{lang.English, lang.Russian} {
		d := scheme2("ann")
		d.Lang = tag
		full, err := set.Render(Report, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range gone[tag][:4] {
			if !strings.Contains(full.Text+full.HTML, s) {
				t.Errorf("%s: a step with dice lost %q from its check", tag, s)
			}
		}
		r := *d.Report
		r.Rolls = nil
		d.Report = &r
		short, err := set.Render(Report, d)
		if err != nil {
			t.Fatal(err)
		}
		for part, body := range map[string]string{"text": short.Text, "html": short.HTML} {
			for _, s := range gone[tag] {
				if strings.Contains(body, s) {
					t.Errorf("%s %s part of a step without dice still says %q:\n%s", tag, part, s, body)
				}
			}
			for _, s := range []string{r.RevealedSeed, r.NextCommitment} {
				if !strings.Contains(body, s) {
					t.Errorf("%s %s part of a step without dice lacks %s:\n%s", tag, part, s, body)
				}
			}
		}
		if n, f := strings.Count(short.Text, "\n"), strings.Count(full.Text, "\n"); n > f-15 {
			t.Errorf("%s: the report without dice has %d lines, with dice %d: not much shorter", tag, n, f)
		}
	}
}

package inmail

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/*.golden from the parser's output")

// dump renders everything Parse extracted in a stable, reviewable form.
func dump(m *Message, err error) string {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	if m == nil {
		return b.String()
	}
	f := func(k string, v any) { fmt.Fprintf(&b, "%s: %v\n", k, v) }
	f("from", m.From)
	f("from-name", m.FromName)
	f("reply-to", m.ReplyTo)
	f("to", m.To)
	f("subject", m.Subject)
	f("message-id", m.MessageID)
	f("in-reply-to", m.InReplyTo)
	f("references", m.References)
	if !m.Date.IsZero() {
		f("date", m.Date.UTC().Format(time.RFC3339))
	}
	f("auto-submitted", m.AutoSubmitted)
	f("precedence", m.Precedence)
	f("list-id", m.ListID)
	f("return-path", fmt.Sprintf("%v %q null=%v", m.HasReturnPath, m.ReturnPath, m.NullSender))
	for _, a := range m.AuthResults {
		f("authentication-results", a)
	}
	f("size", m.Size)
	f("body-type", m.BodyType)
	f("oversize", m.Oversize)
	for _, n := range m.Notes {
		f("note", n)
	}
	f("auto-reply", m.AutoReply)
	f("report-type", m.ReportType)
	// The player's lines with their numbers in the body, as replies
	// name them; then what stands below the signature.
	fmt.Fprintf(&b, "--- text ---\n")
	for _, l := range m.Lines {
		fmt.Fprintf(&b, "%3d| %s\n", l.N, l.Text)
	}
	if len(m.SignOff) > 0 {
		fmt.Fprintf(&b, "--- sign-off ---\n")
		for _, l := range m.SignOff {
			fmt.Fprintf(&b, "%3d| %s\n", l.N, l.Text)
		}
	}
	if len(m.Below) > 0 {
		fmt.Fprintf(&b, "--- below the signature ---\n")
		for _, l := range m.Below {
			fmt.Fprintf(&b, "%3d| %s\n", l.N, l.Text)
		}
	}
	if joinLines(m.Lines) != m.Text {
		fmt.Fprintf(&b, "!!! Text differs from its lines: %q\n", m.Text)
	}
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, "--- attachment %s ---\n%s", a.Name, a.Text)
	}
	fmt.Fprintf(&b, "--- body ---\n%s", m.Body)
	return b.String()
}

func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil || len(files) < 10 {
		t.Fatalf("corpus missing: %v %v", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := dump(Parse(raw, Options{}))
			golden := strings.TrimSuffix(file, ".eml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("extraction differs from %s:\n--- got ---\n%s\n--- want ---\n%s", golden, got, want)
			}
		})
	}
}

// TestAlternativesAgree reads the HTML alternative of every corpus mail that
// has both and checks that it yields the same orders as the plain one: the
// HTML path (blockquotes, Outlook's reply block) must strip like the plain.
func TestAlternativesAgree(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.eml")
	compared := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		plain, err1 := Parse(raw, Options{})
		html, err2 := parse(raw, Options{preferHTML: true}.withDefaults())
		if err1 != nil || err2 != nil || html.BodyType != "text/html" || plain.BodyType != "text/plain" {
			continue
		}
		compared++
		p, h := firstLines(plain.Text, 2), firstLines(html.Text, 2)
		if p != h {
			t.Errorf("%s: plain gives %q, HTML gives %q", filepath.Base(file), p, h)
		}
		if nonBlank(html.Text) > nonBlank(plain.Text) {
			t.Errorf("%s: HTML kept more lines than plain:\n%s---\n%s", filepath.Base(file), html.Text, plain.Text)
		}
	}
	if compared < 4 {
		t.Fatalf("only %d corpus mails have both alternatives", compared)
	}
}

// firstLines is the first n lines of s that are not blank: an HTML part
// has no empty paragraphs where the plain one has blank lines, and blank
// lines are never orders.
func firstLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && len(lines) < n {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func nonBlank(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

func TestBare(t *testing.T) {
	for in, want := range map[string]string{
		"Ann <ann@example.org>":  "ann@example.org",
		"  ann@Example.ORG \n":   "ann@Example.ORG",
		`"Kim, GM" <kim@x.test>`: "kim@x.test",
		"not an address":         "not an address",
		"<bob@example.org>":      "bob@example.org",
		"":                       "",
	} {
		if got := Bare(in); got != want {
			t.Errorf("Bare(%q) = %q, want %q", in, got, want)
		}
	}
}

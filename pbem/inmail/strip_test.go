package inmail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStripQuotes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "move a b\nhold c\n", "move a b\nhold c\n"},
		{"top-posted", "move a b\n\nOn Mon, 1 Jan 2026, Orrery <o@x> wrote:\n> report\n> more\n", "move a b\n"},
		{"bottom-posted", "On Mon, 1 Jan 2026, Orrery wrote:\n> report\n> board\n\nmove a b\nhold c\n", "move a b\nhold c\n"},
		{"interleaved", "> what now?\nmove a b\n> and then?\nhold c\n", "move a b\nhold c\n"},
		{"wrapped gmail attribution", "move a b\n\nOn Sun, Nov 22, 2026 at 8:01 PM Orrery <o@example.org>\nwrote:\n\n> x\n", "move a b\n"},
		{"wrote without quote is kept", "say Ann wrote:\nmove a b\n", "say Ann wrote:\nmove a b\n"},
		{"signature", "move a b\n-- \nAnn\nhttps://ann.example\n", "move a b\n"},
		{"signature before quote", "move a b\n-- \nAnn\n\nOn x, y wrote:\n> r\n", "move a b\n"},
		{"iphone", "move a b\n\nSent from my iPhone\n\n> On x wrote:\n", "move a b\n"},
		{"outlook original message", "move a b\n\n-----Original Message-----\nFrom: Orrery\nSubject: x\nboard\n", "move a b\n"},
		{"outlook from sent block", "move a b\n\nFrom: Orrery <o@x>\nSent: Sunday\nTo: me\n\nreport line\n", "move a b\n"},
		{"french outlook", "move a b\n\nDe : Orrery <o@x>\nEnvoyé : dimanche\nÀ : moi\n\nrapport\n", "move a b\n"},
		{"from without sent is kept", "from: here\nmove a b\n", "from: here\nmove a b\n"},
		{"russian", "move a b\n\n22.11.2026 20:01, Orrery пишет:\n> отчёт\n", "move a b\n"},
		{"russian outlook", "move a b\n-----Исходное сообщение-----\nОт: Orrery\n", "move a b\n"},
		{"french", "move a b\n\nLe dim. 22 nov. 2026 à 20:01, Orrery <o@x> a écrit :\n> r\n", "move a b\n"},
		{"german", "move a b\n\nAm 22.11.2026 um 20:01 schrieb Orrery:\n> r\n", "move a b\n"},
		{"mutt", "* Orrery <o@x> [2026-11-22 20:01:00 +0000]:\n> r\n\nmove a b\n", "move a b\n"},
		{"blank edges", "\n\n  \nmove a b\n\n\n", "move a b\n"},
		{"only quote", "> r\n> s\n", ""},
		{"nested quote", ">> old\n> newer\nmine\n", "mine\n"},
		{"indented quote", "  > r\nmine\n", "mine\n"},
		{"crlf", "move a b\r\n> r\r\n", "move a b\n"},
		{"yahoo", "move a b\n\nSent from Yahoo Mail on Android\n", "move a b\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripQuotes(tc.in); got != tc.want {
				t.Errorf("StripQuotes(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestStripSignOff(t *testing.T) {
	tests := []struct{ name, in, from, want string }{
		{"regards", "move a b\n\nRegards,\nBob Smith\nContoso\n", "", "move a b\n"},
		{"name alone", "move a b\n\nAnn\n", "Ann Example", "move a b\n"},
		{"full name", "move a b\n\nAnn Example\n", "Ann Example", "move a b\n"},
		{"name needs a blank line before", "move a b\nAnn\n", "Ann Example", "move a b\nAnn\n"},
		{"russian", "move a b\n\nСпасибо, Дима\n", "Дмитрий", "move a b\n"},
		{"word inside an order stays", "move a b\ntake c\nbest d\n", "", "move a b\ntake c\nbest d\n"},
		{"sign-off too far up stays", "thanks\n1\n2\n3\n4\n5\n", "", "thanks\n1\n2\n3\n4\n5\n"},
		{"empty", "", "Ann", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripSignOff(tc.in, tc.from); got != tc.want {
				t.Errorf("StripSignOff(%q, %q) = %q, want %q", tc.in, tc.from, got, tc.want)
			}
		})
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"divs", "<div>move a b</div><div>hold c</div>", "move a b\nhold c\n"},
		{"br and entities", "move&nbsp;a&amp;b<br>hold &lt;c&gt;<br/>", "move a&b\nhold <c>\n"},
		{"style and script dropped", "<style>p{x:1}</style><p>move a</p><script>x()</script>", "move a\n"},
		{"pre keeps lines", "<pre>  a b\n  1 .\n</pre>", "  a b\n  1 .\n"},
		{"blockquote quoted", "<p>mine</p><blockquote><div>theirs</div><blockquote>older</blockquote></blockquote>", "mine\n> theirs\n>> older\n"},
		{"inline whitespace", "<p>move   <b>fleet</b>\n  2</p>", "move fleet 2\n"},
		{"table cells", "<table><tr><td>a</td><td>b</td></tr></table>", "a b\n"},
		{"broken html", "<div><p>move a<div>hold", "move a\nhold\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := HTMLToText(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("HTMLToText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestUnflow(t *testing.T) {
	in := "a long line that \nwraps here\n> quoted that \n> wraps\n From stuffed\n-- \nsig"
	want := "a long line that wraps here\n> quoted that wraps\nFrom stuffed\n--\nsig"
	if got := Unflow(in, false); got != want {
		t.Errorf("Unflow = %q, want %q", got, want)
	}
	if got := Unflow("ab \ncd", true); got != "abcd" {
		t.Errorf("Unflow delsp = %q", got)
	}
}

const header = "From: Ann <ann@example.org>\r\nTo: o@example.org\r\nSubject: [g1] x\r\nMessage-ID: <m1@example.org>\r\nMIME-Version: 1.0\r\n"

func TestLimits(t *testing.T) {
	t.Run("oversize", func(t *testing.T) {
		raw := header + "Content-Type: text/plain\r\n\r\n" + strings.Repeat("move a b\r\n", 200)
		m, err := Parse([]byte(raw), Options{MaxText: 100})
		if err != nil {
			t.Fatal(err)
		}
		if !m.Oversize || len(m.Body) > 100 {
			t.Errorf("oversize=%v body=%d bytes, want flagged and cut at 100", m.Oversize, len(m.Body))
		}
		m, _ = Parse([]byte(raw), Options{})
		if m.Oversize {
			t.Error("2 KB flagged oversize with the 256 KiB default")
		}
	})
	t.Run("deep nesting capped", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(header)
		depth := 50
		for i := 0; i < depth; i++ {
			b.WriteString("Content-Type: multipart/mixed; boundary=\"b" + strings.Repeat("x", i) + "\"\r\n\r\n--b" + strings.Repeat("x", i) + "\r\n")
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nmove a b\r\n")
		m, err := Parse([]byte(b.String()), Options{MaxDepth: 5})
		if m == nil || len(m.Notes) == 0 || !strings.Contains(strings.Join(m.Notes, ";"), "deeper than 5") {
			t.Fatalf("want a note about the depth cap, got %+v, %v", m, err)
		}
		if m.Text != "" {
			t.Errorf("text beyond the depth cap was read: %q", m.Text)
		}
	})
	t.Run("broken header", func(t *testing.T) {
		if _, err := Parse([]byte("this is not\r\na mail\x00"), Options{}); err == nil {
			t.Error("want an error for a mail without a header")
		}
	})
	t.Run("broken multipart", func(t *testing.T) {
		raw := header + "Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n--zz--\r\n"
		m, err := Parse([]byte(raw), Options{})
		if err == nil {
			t.Fatalf("want an error for a broken base64 part, got %+v", m)
		}
		if m == nil || m.From != "ann@example.org" {
			t.Errorf("headers should survive a broken body: %+v", m)
		}
	})
	t.Run("text split around an inline picture", func(t *testing.T) {
		raw := header + "Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nmove a b\r\n" +
			"--zz\r\nContent-Type: image/png\r\nContent-Disposition: inline; filename=a.png\r\n\r\nxx\r\n" +
			"--zz\r\nContent-Type: text/plain\r\n\r\nhold c\r\n--zz--\r\n"
		m, err := Parse([]byte(raw), Options{})
		if err != nil || m.Text != "move a b\nhold c\n" {
			t.Errorf("got %q, %v; want both text parts", m.Text, err)
		}
	})
	t.Run("only the first of an alternative", func(t *testing.T) {
		raw := header + "Content-Type: multipart/alternative; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nmove a b\r\n" +
			"--zz\r\nContent-Type: text/plain\r\n\r\nother\r\n--zz--\r\n"
		m, err := Parse([]byte(raw), Options{})
		if err != nil || m.Text != "move a b\n" {
			t.Errorf("got %q, %v", m.Text, err)
		}
	})
	t.Run("no text", func(t *testing.T) {
		raw := header + "Content-Type: image/png\r\n\r\nxx"
		if _, err := Parse([]byte(raw), Options{}); err == nil {
			t.Error("want ErrNoText")
		}
	})
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.eml")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		// parse, not Parse: the recover in Parse would hide a panic.
		m, err := parse(raw, Options{}.withDefaults())
		if err == nil && m == nil {
			t.Fatal("nil message without an error")
		}
		if m != nil && !subsequence(m.Text, m.Body) {
			t.Fatalf("text is not the body's lines in order: %q from %q", m.Text, m.Body)
		}
	})
}

func TestOrdersName(t *testing.T) {
	for name, want := range map[string]bool{"orders.txt": true, "Orders-turn3.txt": true, "my_orders": true,
		"order.txt": true, "border.txt": false, "notes.txt": false, "ORDERS": true} {
		if got := ordersName.MatchString(name); got != want {
			t.Errorf("ordersName(%q) = %v, want %v", name, got, want)
		}
	}
}

// subsequence reports whether the lines of text are lines of body, in
// order: stripping only ever drops lines.
func subsequence(text, body string) bool {
	bl := strings.Split(body, "\n")
	i := 0
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" && text == "" {
			return true
		}
		for i < len(bl) && strings.TrimRight(bl[i], " \t") != l {
			i++
		}
		if i == len(bl) {
			return false
		}
		i++
	}
	return true
}

func FuzzStripQuotes(f *testing.F) {
	f.Add("move a b\n\nOn x, y wrote:\n> r\n-- \nsig\n", "Ann")
	f.Add("From: a\nSent: b\nmove\n", "")
	f.Fuzz(func(t *testing.T, body, name string) {
		text := StripSignOff(StripQuotes(body), name)
		norm := strings.ReplaceAll(body, "\r\n", "\n")
		if !subsequence(text, norm) {
			t.Fatalf("not a subsequence: %q from %q", text, norm)
		}
		if again := StripSignOff(StripQuotes(text), name); len(again) > len(text) {
			t.Fatalf("stripping twice grew the text: %q then %q", text, again)
		}
	})
}

func TestNormalize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bom", "\ufeffSETTLE Vega 3", "SETTLE Vega 3"},
		{"nbsp and nnbsp", "SETTLE\u00a0Vega\u202f3", "SETTLE Vega 3"},
		{"smart quotes", "\u201corders\u201d and \u2018this\u2019 \u00abэто\u00bb", `"orders" and 'this' "это"`},
		{"dashes", "a \u2013 b \u2014 c \u2212 d", "a - b - c - d"},
		{"zero width and soft hyphen", "SET\u200bTLE Ve\u00adga", "SETTLE Vega"},
		{"bidi mark", "\u200eSETTLE Vega 3\u200f", "SETTLE Vega 3"},
		{"cyrillic kept", "ЯЗЫК RU", "ЯЗЫК RU"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestRewrapped: the HTML alternative is read instead of the plain one only
// when the plain one holds the same words broken into more lines.
func TestRewrapped(t *testing.T) {
	html := "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5 ELSE Hamal 5\nSETTLE Vega 5\n"
	tests := []struct {
		name, plain string
		want        bool
	}{
		{"wrapped at 76", "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5\nELSE Hamal 5\nSETTLE Vega 5\n", true},
		{"same lines", html, false},
		{"other words", "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5\nELSE Hamal 6\nSETTLE Vega 5\n", false},
		{"wrapped, quotes differ", "SETTLE Capella 12 ELSE Regulus 12 ELSE Electra 12 ELSE Sol 12 ELSE Mira 5\nELSE Hamal 5\nSETTLE Vega 5\n\nOn x, y wrote:\n> z\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rewrapped(tc.plain, &html); got != tc.want {
				t.Errorf("rewrapped = %v, want %v", got, tc.want)
			}
		})
	}
	if rewrapped(html, nil) {
		t.Error("no HTML part: nothing to prefer")
	}
}

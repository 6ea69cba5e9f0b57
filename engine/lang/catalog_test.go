package lang

import (
	"strings"
	"testing"
)

const samplePO = `# A comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Hello %s,"
msgstr "Здравствуйте, %s!"

#, matched
msgid "The GM paused %s: %s. Deadlines wait until the game resumes."
msgstr "Ведущий приостановил %s: %s. Сроки ждут, "
"пока игра не продолжится."

msgid "%d problem"
msgid_plural "%d problems"
msgstr[0] "%d ошибка"
msgstr[1] "%d ошибки"
msgstr[2] "%d ошибок"

msgid "Step %d of %s: %q"
msgstr "Шаг %d игры %s: %q"

msgid "untranslated"
msgstr ""

msgid "Reorder %s then %s"
msgstr "Сначала %[2]s, потом %[1]s"
`

func TestCatalog(t *testing.T) {
	c := NewCatalog()
	if err := c.AddPO(Russian, samplePO); err != nil {
		t.Fatal(err)
	}
	c.Freeze()
	cases := []struct{ got, want string }{
		{c.Sprintf(Russian, "Hello %s,", "ann"), "Здравствуйте, ann!"},
		{c.Sprintf(English, "Hello %s,", "ann"), "Hello ann,"},
		{c.Sprintf(Russian, "untranslated"), "untranslated"},
		{c.Sprintf(Russian, "not in the catalog %d", 3), "not in the catalog 3"},
		{c.Sprintf(Russian, "100%% sure"), "100% sure"},
		{c.Nprintf(Russian, 1, "%d problem", "%d problems"), "1 ошибка"},
		{c.Nprintf(Russian, 3, "%d problem", "%d problems"), "3 ошибки"},
		{c.Nprintf(Russian, 11, "%d problem", "%d problems"), "11 ошибок"},
		{c.Nprintf(Russian, 21, "%d problem", "%d problems"), "21 ошибка"},
		{c.Nprintf(English, 1, "%d problem", "%d problems"), "1 problem"},
		{c.Nprintf(English, 0, "%d problem", "%d problems"), "0 problems"},
		{c.Sprintf(Russian, "Reorder %s then %s", "a", "b"), "Сначала b, потом a"},
	}
	for _, x := range cases {
		if x.got != x.want {
			t.Errorf("got %q, want %q", x.got, x.want)
		}
	}
	if !strings.Contains(strings.Join(c.Flags("The GM paused %s: %s. Deadlines wait until the game resumes."), ","), "matched") {
		t.Error("the flag of a message was lost")
	}
	if c.Has(Russian, "untranslated") {
		t.Error("an empty msgstr is no translation")
	}
}

func TestTranslate(t *testing.T) {
	c := NewCatalog()
	if err := c.AddPO(Russian, samplePO); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"The GM paused demo1: holidays, and more. Deadlines wait until the game resumes.",
			"Ведущий приостановил demo1: holidays, and more. Сроки ждут, пока игра не продолжится.", true},
		{"Step 3 of demo1: \"a \\\"quoted\\\" word\"", "Шаг 3 игры demo1: \"a \\\"quoted\\\" word\"", true},
		{"5 problems", "5 ошибок", true},
		{"1 problem", "1 ошибка", true},
		{"Hello ann,", "Здравствуйте, ann!", true},
		{"Hello ann, again", "Hello ann, again", false},
		{"Something else entirely", "Something else entirely", false},
	}
	for _, x := range cases {
		got, ok := c.Translate(Russian, x.in)
		if got != x.want || ok != x.ok {
			t.Errorf("Translate(%q) = %q, %v; want %q, %v", x.in, got, ok, x.want, x.ok)
		}
	}
	if got, ok := c.Translate(English, "Hello ann,"); ok || got != "Hello ann," {
		t.Errorf("English is never translated: %q", got)
	}
}

func TestAddPOErrors(t *testing.T) {
	for _, src := range []string{
		"msgid \"a %s\"\nmsgstr \"б\"\n", // a verb lost in translation
		"\"dangling\"\n",                 // continues nothing
		"msgid \"a\"\nmsgstr[1] \"б\"\n", // forms out of order
		"msgid \"a\"\nmsgstr unquoted\n", // not a string
		"msgid \"a\"\nmsgctxt \"x\"\n",   // not supported
	} {
		if err := NewCatalog().AddPO(Russian, src); err == nil {
			t.Errorf("AddPO(%q) should fail", src)
		}
	}
}

func TestNprintfWithoutCount(t *testing.T) {
	c := NewCatalog()
	c.Add(Russian, "Correct it.", "Исправьте её.", "Исправьте их.", "Исправьте их.")
	if got := c.Nprintf(Russian, 3, "Correct it.", "Correct them."); got != "Исправьте их." {
		t.Errorf("got %q", got)
	}
	if got := c.Nprintf(English, 3, "Correct it.", "Correct them."); got != "Correct them." {
		t.Errorf("got %q", got)
	}
}

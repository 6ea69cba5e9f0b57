package templates

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"orrery/engine/lang"
	"orrery/pbem/settings"
)

var (
	tCall  = regexp.MustCompile(`\bth?[ (]"((?:[^"\\]|\\.)*)"`) // t, and th (with markup)
	tnCall = regexp.MustCompile(`\btn[ (](?:\([^)]*\)|[\w.]+),? "((?:[^"\\]|\\.)*)",? "((?:[^"\\]|\\.)*)"`)
)

// msgids lists every message the templates and this package's Go code
// translate, with where it is used.
func msgids(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob("*.tmpl")
	// The web pages' words (pbem/web renders them with this catalog).
	pages, _ := filepath.Glob("web/*.html")
	files = append(files, pages...)
	gofiles, _ := filepath.Glob("*.go")
	for _, f := range gofiles {
		if !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tCall.FindAllStringSubmatch(string(b), -1) {
			s, err := strconv.Unquote(`"` + m[1] + `"`)
			if err != nil {
				t.Fatalf("%s: %q: %v", f, m[1], err)
			}
			out[s] = f
		}
		for _, m := range tnCall.FindAllStringSubmatch(string(b), -1) {
			s, _ := strconv.Unquote(`"` + m[1] + `"`)
			out[s] = f
		}
	}
	for _, c := range append(append([]Command(nil), Commands...), GMCommands...) {
		out[c.Help] = "commands.go"
	}
	for _, title := range NoticeTitles {
		out[title] = "NoticeTitles"
	}
	for _, w := range weekdays {
		out[w] = "weekdays"
	}
	for _, n := range languageNames {
		out[n] = "languageNames"
	}
	for _, k := range settings.Keys {
		out[k.Help] = "pbem/settings"
	}
	// The messages (lang.Msg) of the engine, the mail side and the
	// binary: their translations are the templates' catalog's.
	uses, err := lang.Uses([]string{"../engine/...", "../pbem/...", "../cmd/...", "."})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range uses {
		out[u.ID] = strings.TrimPrefix(u.Pos, "../")
	}
	return out
}

// TestCatalogsComplete checks every language's messages against the
// templates: each sentence a template or this package translates has a
// translation, and each message of a PO file is used, as a template's
// word or a message (lang.M) of the Go code; none is flagged "matched"
// (found by matching English formatted elsewhere: there are none now).
func TestCatalogsComplete(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	ids := msgids(t)
	if len(ids) < 100 {
		t.Fatalf("only %d messages found in the templates: the scan is broken", len(ids))
	}
	c := set.Catalog()
	for _, tag := range set.Languages()[1:] {
		var missing []string
		for id, where := range ids {
			if !c.Has(tag, id) {
				missing = append(missing, where+": "+strconv.Quote(id))
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: %d messages have no translation:\n%s", tag, len(missing), strings.Join(missing, "\n"))
		}
		for _, id := range c.IDs(tag) {
			if _, used := ids[id]; !used {
				t.Errorf("%s: message %q is used nowhere: delete it, or make its sentence with lang.M", tag, id)
			}
			if contains(c.Flags(id), "matched") {
				// Every sentence of the engine and the mail side is a
				// message now: none is found by matching English.
				t.Errorf("%s: message %q is flagged \"#, matched\": make its sentence with lang.M and drop the flag", tag, id)
			}
		}
	}
	if got := set.Languages(); len(got) < 2 || got[0] != lang.English || got[1] != lang.Russian {
		t.Errorf("languages %v, want English then Russian", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

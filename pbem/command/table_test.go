package command_test

import (
	"os"
	"strings"
	"testing"

	"orrery/pbem/command"
	"orrery/pbem/route"
	"orrery/templates"
)

// helpLines are a descriptor's lines of HELP: its own, or its verbs'.
func helpLines(d *command.Descriptor) []command.HelpLine {
	if d.Name == command.GM {
		return command.GMHelpLines()
	}
	return d.Help
}

// TestTable walks the table: every command has a kind, a limit class, a
// parser, help in every language, examples it parses (alone and in a
// mail) and a malformed line it refuses with a fix. pbem/daemon's
// TestEveryCommandHasARunner and TestEveryCommandRuns check that each
// also has a runner and a run case (a mail and a phrase of its answer).
func TestTable(t *testing.T) {
	set, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	cat := set.Catalog()
	langs := set.Languages()
	if len(langs) < 2 {
		t.Fatalf("languages %v: the catalog did not load", langs)
	}
	seen := map[command.Name]bool{}
	for _, d := range command.All {
		t.Run(string(d.Name), func(t *testing.T) {
			if seen[d.Name] {
				t.Fatalf("%s is listed twice in command.All", d.Name)
			}
			seen[d.Name] = true
			if d.Kind == 0 {
				t.Errorf("%s has no Kind: say whether it reads, changes, is the GM's or a marker", d.Name)
			}
			if d.Limit == 0 {
				t.Errorf("%s has no Limit: say whether it counts as a read, a change or nothing", d.Name)
			}
			if d.Parse == nil {
				t.Fatalf("%s has no Parse", d.Name)
			}
			lines := helpLines(d)
			if len(lines) == 0 {
				t.Errorf("%s has no HELP line", d.Name)
			}
			for _, h := range lines {
				if h.Syntax == "" || h.Help == "" {
					t.Errorf("%s: HELP line %+v lacks its syntax or its help", d.Name, h)
				}
				for _, tag := range langs[1:] {
					if !cat.Has(tag, h.Help) {
						t.Errorf("%s: HELP line %q has no %s translation: add it to templates/lang/%s.po", d.Name, h.Help, tag, tag)
					}
				}
			}
			if len(d.Examples) == 0 {
				t.Errorf("%s has no Examples: add lines it must parse", d.Name)
			}
			opt := route.Options{
				IsGame:    func(id string) bool { return id == "demo1" || id == "prosper-k7f3" },
				IsRuleset: func(name string) bool { return name == "prosper" },
			}
			for _, ex := range d.Examples {
				f := strings.Fields(ex)
				c, ok, msg := d.Parse(command.In{Word: command.Name(strings.ToUpper(f[0])), Args: f[1:], Line: 1, Game: "demo1", IsGame: opt.IsGame, IsRuleset: opt.IsRuleset})
				if !ok {
					t.Errorf("%s does not parse its example %q: %s", d.Name, ex, msg)
				}
				text := ex
				if command.ReadsBlock(c) {
					text += "\nhello\nEND"
				}
				r := route.Parse("[demo1 k7f3q]", text, nil, opt)
				if len(r.Errors) > 0 || len(r.Commands) != 1 || r.Commands[0].Name != d.Name {
					t.Errorf("%q in a mail about demo1: commands %+v, errors %+v; want one %s", ex, r.Commands, r.Errors, d.Name)
				}
			}
			if d.Malformed == "" {
				t.Fatalf("%s has no Malformed line: add one it must refuse", d.Name)
			}
			if d.Usage.IsZero() && d.Name != command.SendSecret { // SECRET's malformed line is answered by route (see SecretCmd)
				t.Errorf("%s has no Usage: the fix given with a line it refuses", d.Name)
			}
			f := strings.Fields(d.Malformed)
			if _, ok, _ := d.Parse(command.In{Word: command.Name(strings.ToUpper(f[0])), Args: f[1:], Line: 1, IsGame: opt.IsGame, IsRuleset: opt.IsRuleset}); ok {
				t.Errorf("%s parses its Malformed line %q", d.Name, d.Malformed)
			}
			r := route.Parse("", d.Malformed, nil, opt)
			if len(r.Errors) != 1 || r.Errors[0].Line != 1 || r.Errors[0].Msg == "" || r.Errors[0].Fix == "" {
				t.Errorf("%q in a mail about no game: errors %+v, want one error on line 1 with a reason and a fix", d.Malformed, r.Errors)
			} else if d.Name != command.SendSecret && (r.Errors[0].Why == nil || r.Errors[0].Hint == nil) {
				// Messages, so that the reader gets them in their language.
				t.Errorf("%q: the reason and the fix are not messages (lang.M): %+v", d.Malformed, r.Errors[0])
			}
		})
	}
}

// TestWordsAreUnique checks that no word starts two commands and that
// Lookup finds each command by each of its words.
func TestWordsAreUnique(t *testing.T) {
	for _, d := range command.All {
		for _, w := range append([]command.Name{d.Name}, d.Words...) {
			if got := command.Lookup(w); got != d {
				t.Errorf("Lookup(%q) = %v, want %s", w, got, d.Name)
			}
		}
	}
	if command.Lookup("GAME") != nil {
		t.Error("GAME routes a mail; it is not a command")
	}
}

// TestHELPNamesTheReads keeps HELP's sentence on a mail's limits (worded
// with its translation in templates, so not built from the table) true to
// the table: it names the commands of the Reads class, in order.
func TestHELPNamesTheReads(t *testing.T) {
	var names []string
	for _, d := range command.All {
		if d.Limit == command.Reads {
			names = append(names, string(d.Name))
		}
	}
	want := "One mail gets a few answers to " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " (the same one once)"
	b, err := os.ReadFile("../../templates/help.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), want); n != 2 {
		t.Errorf("templates/help.tmpl says %q %d times, want 2 (text and HTML): change its sentence (and ru.po) to the table's Reads", want, n)
	}
}

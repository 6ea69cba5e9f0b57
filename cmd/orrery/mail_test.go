package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games"
	"orrery/pbem/daemon"
)

func mailCLI(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &out, rulesets: games.All()}
	err := run(context.Background(), e, args)
	return out.String(), err
}

const corpus = "../../pbem/inmail/testdata/corpus/"

// TestMailCheckNeedsNoDatabase: any .eml, from a file or standard input,
// as text or as the JSON the issue names, with no database at all.
func TestMailCheckNeedsNoDatabase(t *testing.T) {
	t.Setenv("ORRERY_CONFIG", "")
	chatter, typo := mustAbs(t, corpus+"chatter-and-signoff.eml"), mustAbs(t, corpus+"typo-order.eml")
	raw, _ := os.ReadFile(corpus + "auto-exchange-oof.eml")
	dir := t.TempDir()
	t.Chdir(dir) // no orrery.db here, and none may be made
	out, err := mailCLI(t, "", "mail", "check", "--json", chatter)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"reply", "why", "from", "game", "orders", "ignored", "errors"} {
		if _, ok := v[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	var got daemon.Verdict
	json.Unmarshal([]byte(out), &got)
	if !got.Reply || got.Game != "ch1" || got.From != "ann@example.org" || len(got.Orders) != 2 || got.Orders[0].Line != 5 ||
		len(got.Ignored) != 5 || len(got.Errors) != 0 {
		t.Errorf("verdict: %+v", got)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("mail check wrote %v", files)
	}
	out, err = mailCLI(t, string(raw), "mail", "check", "-")
	if err != nil || !strings.Contains(out, "reply:   no: not answered: X-Auto-Response-Suppress: All") {
		t.Errorf("from standard input: %v\n%s", err, out)
	}
	out, _ = mailCLI(t, "", "mail", "check", typo)
	for _, want := range []string{"orders:\n  line 3: SETLE Sol 12\n  line 4: SETTLE Vega 5", "not read as orders:\n  line 1: Hi,\n  line 6: Thanks"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

// TestMailCheckWithDatabase adds the game, the seat, the secret's verdict
// and the ruleset's errors, naming the line as sent.
func TestMailCheckWithDatabase(t *testing.T) {
	t.Setenv("ORRERY_CONFIG", "")
	db := filepath.Join(t.TempDir(), "db")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := game.New(st, games.All())
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "ty1", Ruleset: "prosper",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "zed", Email: "zed@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, err := mailCLI(t, "", "mail", "check", "--json", "--db", db, mustAbs(t, corpus+"typo-order.eml"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var v daemon.Verdict
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	// The secret in the corpus mail is not ann's: nothing goes further.
	if v.Routing == nil || !v.Routing.GameFound || v.Routing.Ruleset != "prosper" || v.Routing.Auth != "wrong secret" {
		t.Errorf("routing: %+v", v.Routing)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// TestMailCheckExplainsAuthResults: mail check says which
// Authentication-Results header sender authentication would read and why
// it is believed or not, with the config's auth_serv_id (issue 39).
func TestMailCheckExplainsAuthResults(t *testing.T) {
	t.Setenv("ORRERY_CONFIG", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "orrery.yaml")
	if err := os.WriteFile(cfg, []byte("security:\n  sender_auth: strict\n  auth_serv_id: mx.example.net\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := 0
	mail := func(headers ...string) string {
		n++
		f := filepath.Join(dir, fmt.Sprintf("m%d.eml", n))
		body := strings.Join(headers, "\r\n") + "\r\nFrom: ann@example.org\r\nSubject: [ty1] orders\r\nMessage-ID: <1@x>\r\n\r\nPUSH 1\r\n"
		if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	ours := "Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=ann@example.org"
	for _, c := range []struct {
		name string
		args []string
		file string
		want string
	}{
		{"ours alone", []string{"--config", cfg}, mail(ours),
			"authres: read the topmost Authentication-Results header (1 of 1), mx.example.net's and the only one with its id: believed\n"},
		{"the MTA did not strip", []string{"--config", cfg}, mail(ours, "Authentication-Results: mx.relay.example; spf=none", ours),
			"authres: 2 Authentication-Results headers carry mx.example.net's id (headers 1, 3 of 3, from the top): the MTA did not strip those that came with the mail"},
		{"ours below another's", []string{"--config", cfg}, mail("Authentication-Results: mx.relay.example; spf=none", ours),
			"below mx.relay.example's: the topmost is not ours"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := mailCLI(t, "", append(append([]string{"mail", "check"}, c.args...), c.file)...)
			if err != nil || !strings.Contains(out, c.want) {
				t.Errorf("%v: want %q in\n%s", err, c.want, out)
			}
		})
	}
	// Without auth_serv_id no header is read, and nothing is said of them.
	if out, err := mailCLI(t, "", "mail", "check", mail(ours)); err != nil || strings.Contains(out, "authres:") {
		t.Errorf("without a config: %v\n%s", err, out)
	}
	out, _ := mailCLI(t, "", "mail", "check", "--json", "--config", cfg, mail(ours, ours))
	var v daemon.Verdict
	if err := json.Unmarshal([]byte(out), &v); err != nil || !strings.Contains(v.AuthResults, "none is believed") {
		t.Errorf("JSON auth_results %q (%v)", v.AuthResults, err)
	}
}

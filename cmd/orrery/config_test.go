package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigMistakeIsAnError: the commands that read a few keys of the
// config (the database, the bounce policy, the GM's address, backups, mail
// check) read it through one reader, as strictly as orrery serve: a
// misspelt key or a value of the wrong type is an error naming the key,
// never a silent default (a misspelt bounces.hard_limit used to give the
// default bounce policy without a word).
func TestConfigMistakeIsAnError(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	must(t, db, "", "player", "set", "ann@example.org", "lang", "en")
	for _, c := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"misspelt bounce key", "bounces:\n  hard_limt: 3\n", []string{"player", "show", "ann@example.org"}, "bounces.hard_limt: unknown key"},
		{"bounce window not a duration", "bounces:\n  within: a fortnight\n", []string{"player", "show", "ann@example.org"}, `bounces.within: "a fortn..." is not a duration`},
		{"misspelt store key", "stroe: postgres\n", []string{"game", "list"}, "stroe: unknown key"},
		{"misspelt gm", "gmm: gm@example.org\n", []string{"game", "new", "prosper", "--id", "x1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org"}, "gmm: unknown key"},
		{"backup keep not a number", "backup:\n  keep: many\n", []string{"db", "backup"}, `backup.keep: "many" is not a whole number`},
		{"mail check", "limits:\n  max_txt: 10\n", []string{"mail", "check", "-"}, "limits.max_txt: unknown key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".yaml")
			if err := os.WriteFile(cfg, []byte(c.config), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := runWith(t, "", append(c.args, "--db", db, "--config", cfg)...)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), cfg) {
				t.Errorf("orrery %s with %q: err %v, want one naming %s and %q\n%s%s", strings.Join(c.args, " "), c.config, err, cfg, c.want, out, errOut)
			}
		})
	}
	// A config without mistakes, and with none of the servers' keys,
	// still serves these commands.
	cfg := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(cfg, []byte("bounces:\n  hard_limit: 5\n  within: 240h\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := runWith(t, "", "player", "show", "ann@example.org", "--db", db, "--config", cfg); err != nil || !strings.Contains(out, "mail: ok") {
		t.Errorf("player show with a good config: %v\n%s%s", err, out, errOut)
	}
}

// TestGMAddressIsCanonical: the GM's address from the config is compared
// in game.CanonAddress's form, which folds ASCII case only: a GM address
// written with the Kelvin sign (which strings.ToLower turns into k) is not
// the seat kim@example.org, and gets no warning that the GM plays.
func TestGMAddressIsCanonical(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		gm   string
		warn bool
	}{{"Grace <KIM@Example.org>", true}, {"\u212aim@example.org", false}} {
		cfg := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(cfg, []byte("gm: "+c.gm+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errOut, err := runWith(t, "", "game", "new", "prosper", "--id", fmt.Sprintf("g%d", i), "--player", "kim=kim@example.org",
			"--player", "bob=bob@example.org", "--db", filepath.Join(dir, "w.db"), "--config", cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(errOut, "plays from the GM's own address"); got != c.warn {
			t.Errorf("gm %q: warned %v, want %v:\n%s", c.gm, got, c.warn, errOut)
		}
	}
}

package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
)

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// serve with http.listen serves the pages there, and every player's mail
// links to their private page at http.url, the address behind the proxy;
// the pages stop with the daemon.
func TestServeWithConfigServesPages(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{"bot@pbem.test": "s3cret"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "s3cret")
	cfg := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "c.db")
	listen := freePort(t)
	os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <bot@pbem.test>"
imap:
  server: %s
  tls: none
  username: bot@pbem.test
  password_env: ORRERY_TEST_IMAP_PW
  idle: false
  poll_interval: 50ms
smtp:
  server: %s
  tls: none
  auth: none
http:
  listen: %s
  url: https://games.example.org/
tick: 1s
log_level: warn
`, db, srv.IMAPAddr, srv.SMTPAddr, listen)), 0o600)
	out, stop := startServe(t, "--config", cfg)
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	if !strings.Contains(out.String(), "web pages on "+listen+", for players at https://games.example.org/") {
		t.Errorf("serve printed: %s", out)
	}
	gmCommand(t, db, "game", "new", "toy", "--id", "t3", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	waitFor(t, "the welcome mails", func() bool { return len(srv.Sent()) >= 2 })
	re := regexp.MustCompile(`https://games\.example\.org(/g/t3/p/[A-Za-z0-9_-]{22})`)
	var path string
	for _, m := range srv.Sent() {
		pm, err := inmail.Parse(m.Data, inmail.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.To[0], "ann") {
			if l := re.FindStringSubmatch(pm.Text); l != nil {
				path = l[1]
			}
		}
	}
	if path == "" {
		t.Fatal("ann's welcome mail has no link to her private page")
	}
	if code, body := httpGet(t, "http://"+listen+path); code != 200 || !strings.Contains(body, "ann's private page") {
		t.Errorf("ann's link: %d\n%s", code, body)
	}
	if code, body := httpGet(t, "http://"+listen+"/"); code != 200 || !strings.Contains(body, `href="/g/t3"`) {
		t.Errorf("the list of games: %d\n%s", code, body)
	}
	stop()
	if _, err := http.Get("http://" + listen + "/"); err == nil {
		t.Errorf("the pages outlived the daemon")
	}
}

// serve --embedded prints the pages' address, and they answer there.
func TestServeEmbeddedServesPages(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	out, stop := startServe(t, "--embedded", "--db", db)
	defer stop()
	var m []string
	re := regexp.MustCompile(`web    (http://127\.0\.0\.1:\d+)/`)
	waitFor(t, "the web address", func() bool { m = re.FindStringSubmatch(out.String()); return m != nil })
	if code, body := httpGet(t, m[1]+"/"); code != 200 || !strings.Contains(body, "Games on this server") {
		t.Errorf("%s: %d\n%s", m[1], code, body)
	}
}

// game archive writes the pages into the folder named; through a running
// daemon the files come back and are written by the command itself, never
// by the daemon.
func TestGameArchive(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	must(t, db, "PUSH 2\n", "orders", "g", "--as", "ann", "-f", "-")
	must(t, db, "PUSH 1\n", "orders", "g", "--as", "bob", "-f", "-")
	if _, err := cli(t, db, "", "game", "archive", "g"); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("without --out: %v", err)
	}
	local := filepath.Join(dir, "local")
	out := must(t, db, "", "game", "archive", "g", "--out", local)
	if !strings.Contains(out, "wrote ") || !strings.Contains(out, "note: game.json") {
		t.Errorf("game archive printed:\n%s", out)
	}
	for _, f := range []string{"index.html", "step-1.html", "step-1.json", "dice.html", "feed.atom", "assets/dice.js"} {
		if _, err := os.Stat(filepath.Join(local, f)); err != nil {
			t.Errorf("the archive lacks %s", f)
		}
	}
	// Now with a daemon holding the database.
	forward := holdDB(t, db, nil)
	forwarded := filepath.Join(dir, "forwarded")
	out, err := forward("", "game", "archive", "g", "--out", forwarded)
	if err != nil {
		t.Fatalf("archive through the daemon: %v\n%s", err, out)
	}
	if strings.Contains(out, filesMarker) || !strings.Contains(out, "wrote ") {
		t.Errorf("printed:\n%s", out)
	}
	a, _ := os.ReadFile(filepath.Join(local, "step-1.html"))
	b, err := os.ReadFile(filepath.Join(forwarded, "step-1.html"))
	if err != nil || !bytes.Equal(a, b) {
		t.Errorf("the forwarded archive differs from the local one: %v", err)
	}
}

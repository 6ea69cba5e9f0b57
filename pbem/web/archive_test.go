package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// With a drawing, a page shows the board as a picture with a text
// alternative and the text board beside it; the picture is drawn from the
// reader's own view (a seat's, or the public one), and served as SVG under
// a policy of its own that lets it run nothing.
func TestPicture(t *testing.T) {
	svc, _ := toyGame(t)
	var mu sync.Mutex
	var drawn []string
	pic := func(v engine.View) ([]byte, string, error) {
		mu.Lock()
		drawn = append(drawn, v.Player())
		mu.Unlock()
		return textPicture(v)
	}
	s := newSite(t, Config{Service: svc, Picture: pic})
	w := get(s, "GET", "/g/g1/step/1")
	body := w.Body.String()
	for _, want := range []string{`<a href="/g/g1/step/1.svg" title="The picture on its own, to zoom"><img src="/g/g1/step/1.svg" alt="The board, drawn (its text form follows)" aria-describedby="board-text"></a>`, `<pre id="board-text"`, "<summary>The board as text</summary>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the step page lacks %q:\n%s", want, body)
		}
	}
	svg := get(s, "GET", "/g/g1/step/1.svg")
	if svg.Code != 200 || svg.Header().Get("Content-Type") != "image/svg+xml; charset=utf-8" ||
		svg.Header().Get("Content-Security-Policy") != "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'" ||
		!strings.HasPrefix(svg.Body.String(), "<svg") || strings.Contains(svg.Body.String(), "never surrender") {
		t.Errorf("the public picture: %d %v\n%s", svg.Code, svg.Header(), svg.Body)
	}
	tok := tokenOf(t, svc, "g1", "ann")
	mine := get(s, "GET", "/g/g1/p/"+tok+"/step/1.svg")
	if mine.Code != 200 || !strings.Contains(mine.Body.String(), "never surrender") {
		t.Errorf("ann's picture does not show her motto: %d\n%s", mine.Code, mine.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range drawn {
		if p == "" || p == "bob" {
			t.Errorf("a picture was drawn from %q's view", p)
		}
	}
}

// The archive is the public pages as files whose links lead to each other;
// its export has no secret or address, no press and no refused orders,
// the dice secret only once the game is over, and still imports and
// verifies by replay.
func TestArchive(t *testing.T) {
	svc, c := toyGame(t)
	ctx := context.Background()
	if _, _, err := svc.Press(ctx, "g1", "bob", []string{"ann"}, "a private word"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Submit(ctx, game.Input{Game: "g1", Player: "bob", Text: "PUSH 9 secretly"}); err != nil && !game.IsUserError(err) {
		t.Fatal(err)
	}
	if _, _, err := svc.Replace(ctx, "g1", "bob", "bobby@example.org"); err != nil {
		t.Fatal(err)
	}
	s := newSite(t, Config{Service: svc, Picture: textPicture})
	files, notes, err := s.Archive(ctx, "g1", ArchiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
	}
	if _, ok := byName["game.json"]; ok || len(notes) == 0 {
		t.Errorf("a running game's archive has its export, or says nothing of it: %v", notes)
	}
	for _, want := range []string{"index.html", "dice.html", "feed.atom", "report.json", "step-0.html", "step-3.html", "step-3.json", "step-3.svg", "assets/style.css", "assets/dice.js", "assets/local.js"} {
		if _, ok := byName[want]; !ok {
			t.Errorf("the archive lacks %s", want)
		}
	}
	link := regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	for name, data := range byName {
		if strings.Contains(string(data), "never surrender") || strings.Contains(string(data), "a private word") || strings.Contains(string(data), "@example.org") {
			t.Errorf("%s shows something private", name)
		}
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			ref := strings.ReplaceAll(m[1], "&amp;", "&")
			if strings.HasPrefix(ref, "mailto:") || strings.HasPrefix(ref, "#") {
				continue
			}
			if strings.HasPrefix(ref, "/") || strings.Contains(ref, "://") {
				t.Errorf("%s links to %q, which leaves the archive", name, ref)
				continue
			}
			if _, ok := byName[path.Join(path.Dir(name), ref)]; !ok {
				t.Errorf("%s links to %q, which is not in the archive", name, ref)
			}
		}
	}
	// Finish the race: the export comes, with the dice secret.
	for i := 0; i < 20; i++ {
		g, _ := svc.Get(ctx, "g1")
		if g.Over() {
			break
		}
		c.t = c.t.Add(time.Hour)
		for _, p := range []string{"ann", "bob"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "g1", Player: p, Text: "PUSH 3"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _, err = s.Archive(ctx, "g1", ArchiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var export []byte
	for _, f := range files {
		if f.Name == "game.json" {
			export = f.Data
		}
	}
	if export == nil {
		t.Fatal("a finished game's archive has no game.json")
	}
	var x game.Export
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	if x.Game.DiceSecret != "web-test" {
		t.Errorf("the finished game's export lacks its dice secret")
	}
	for _, p := range x.Game.Players {
		if p.Secret != PublicSecret || p.Email != "" {
			t.Errorf("seat %s: secret %q, address %q", p.Name, p.Secret, p.Email)
		}
	}
	for _, bad := range []string{"a private word", "secretly", "@example.org", `"kind": "press"`, `"kind": "rejected"`} {
		if strings.Contains(string(export), bad) {
			t.Errorf("the export holds %q", bad)
		}
	}
	// Anyone can import it elsewhere and verify it by replay.
	st := openStore(t)
	other := game.New(st, []engine.Ruleset{toy.Ruleset()})
	if _, err := other.Import(ctx, &x, game.ImportOptions{}); err != nil {
		t.Fatalf("the public export does not import: %v", err)
	}
	v, err := other.Verify(ctx, "g1")
	if err != nil || !v.OK() {
		t.Fatalf("the imported public export does not verify: %v %v", err, v)
	}
	// --export-running for a running game: no dice secret.
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "g9", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "ann"}}}); err != nil {
		t.Fatal(err)
	}
	files, _, err = s.Archive(ctx, "g9", ArchiveOptions{ExportRunning: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name == "game.json" {
			var x game.Export
			json.Unmarshal(f.Data, &x)
			if x.Game.DiceSecret != "" {
				t.Errorf("a running game's export shows its dice secret")
			}
		}
	}
}

// The server has its timeouts and limits, answers until its context ends,
// and then lets a request in flight finish before it returns.
func TestServe(t *testing.T) {
	srv := NewServer(http.NotFoundHandler(), nil)
	if srv.ReadHeaderTimeout != ReadHeaderTimeout || srv.ReadTimeout != ReadTimeout || srv.WriteTimeout != WriteTimeout ||
		srv.IdleTimeout != IdleTimeout || srv.MaxHeaderBytes != MaxHeaderBytes {
		t.Errorf("server limits: %+v", srv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		w.Write([]byte("done"))
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, nil) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b := make([]byte, 4)
		n, _ := resp.Body.Read(b)
		got <- string(b[:n])
	}()
	<-started
	cancel()
	select {
	case err := <-served:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if body := <-got; body != "done" {
		t.Errorf("the request in flight got %q", body)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("the server still answers after shutdown: %v", err)
	}
}

// TestArchiveLanguage: an archive is written in one language, the one
// asked for, else the game's own (every seated player's), else English,
// and links to no other (there is none in it).
func TestArchiveLanguage(t *testing.T) {
	svc, _ := toyGame(t)
	ctx := context.Background()
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat})
	page := func(opt ArchiveOptions, name string) string {
		t.Helper()
		files, _, err := s.Archive(ctx, "g1", opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Name == name {
				return string(f.Data)
			}
		}
		t.Fatalf("no %s in the archive", name)
		return ""
	}
	for _, name := range []string{"index.html", "dice.html", "step-1.html"} {
		if p := page(ArchiveOptions{}, name); !strings.Contains(p, `<html lang="en">`) || strings.Contains(p, "?lang=") {
			t.Errorf("%s of a game without a language is not English alone:\n%s", name, p)
		}
		if p := page(ArchiveOptions{Lang: lang.Russian}, name); !strings.Contains(p, `<html lang="ru">`) || !strings.Contains(p, "Поле") && name != "dice.html" {
			t.Errorf("%s asked for in Russian:\n%s", name, p)
		}
	}
	if p := page(ArchiveOptions{Lang: lang.Russian}, "dice.html"); !strings.Contains(p, "В этой игре кубики") || !strings.Contains(p, "проверено") {
		t.Errorf("the Russian archive's dice page:\n%s", p)
	}
}

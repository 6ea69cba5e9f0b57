package main

import (
	"bytes"
	"context"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/games"
	"orrery/pbem/pbemtest"
)

func TestDemoPlaysAGameByMail(t *testing.T) {
	out, err := cli(t, "", "", "demo", "--ruleset", "toy", "--players", "2")
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	for _, want := range []string{"orrery  ann,bob      welcome  Welcome to Toy Race", "ann     orrery       orders   PUSH", "orrery  ann,bob      report", "reply    Orders received", "The game is over", "Replay verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

func TestDemoStopsAfterTurns(t *testing.T) {
	out, err := cli(t, "", "", "demo", "--ruleset", "toy", "--players", "3", "--turns", "1")
	if err != nil || !strings.Contains(out, "Stopped after 1 turn ") {
		t.Fatalf("demo --turns 1: %v\n%s", err, out)
	}
	if _, err := cli(t, "", "", "demo", "--ruleset", "toy", "--players", "9"); err == nil || !strings.Contains(err.Error(), "1 to 8 players") {
		t.Errorf("too many players: %v", err)
	}
}

// Without --players the demo plays with a count the ruleset takes: three,
// or two for a two-player game such as Orbital (the README's
// "orrery demo --ruleset orbital").
func TestDemoPicksAPlayerCountTheRulesetTakes(t *testing.T) {
	demo := func(args ...string) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: games.All()}
		err := run(context.Background(), e, append([]string{"demo", "--ruleset", "orbital"}, args...))
		return out.String(), err
	}
	out, err := demo("--turns", "1")
	if err != nil || !strings.Contains(out, "by mail for 2 players") {
		t.Fatalf("demo --ruleset orbital: %v\n%s", err, out)
	}
	if _, err := demo("--players", "3"); err == nil || !strings.Contains(err.Error(), "2 to 2 players, not 3") {
		t.Errorf("an explicit count the ruleset refuses: %v", err)
	}
}

// --option reaches the ruleset: a toy race to 1 ends on the first push, and
// an option the ruleset does not know is refused by name.
func TestDemoTakesOptions(t *testing.T) {
	out, err := cli(t, "", "", "demo", "--ruleset", "toy", "--players", "2", "--option", "finish=1")
	if err != nil || !strings.Contains(out, "(1 step): ann crossed the line") {
		t.Fatalf("demo --option finish=1: %v\n%s", err, out)
	}
	if _, err := cli(t, "", "", "demo", "--ruleset", "toy", "--option", "speed=9"); err == nil || !strings.Contains(err.Error(), `no option "speed"`) {
		t.Errorf("unknown option: %v", err)
	}
	if _, err := cli(t, "", "", "demo", "--ruleset", "toy", "--option", "finish"); err == nil || !strings.Contains(err.Error(), "NAME=VALUE") {
		t.Errorf("option without a value: %v", err)
	}
}

// The demo shows what players see: -v prints each mail's decoded text
// (not MIME), the end prints the last report as the first player got it,
// and --save writes every mail as an .eml file named by sequence, sender
// and kind.
func TestDemoShowsWhatPlayersSee(t *testing.T) {
	dir := t.TempDir()
	out, err := cli(t, "", "", "demo", "--ruleset", "toy", "--players", "2", "-v", "--save", dir)
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	for _, want := range []string{"=== mail 1, welcome from orrery to ann", "Your secret is: ", "The last report, as ann got it (its text part):", "mails written to " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	for _, raw := range []string{"Content-Transfer-Encoding", "=\n", "boundary="} {
		if strings.Contains(out, raw) {
			t.Errorf("demo -v prints raw MIME (%q):\n%s", raw, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	names := strings.Join(files, " ")
	for _, want := range []string{"001-orrery-welcome-to-ann.eml", "-ann-orders.eml", "-orrery-report-to-bob.eml", "-orrery-reply-to-"} {
		if !strings.Contains(names, want) {
			t.Errorf("no %s among %v", want, files)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "001-orrery-welcome-to-ann.eml"))
	if err != nil || !bytes.Contains(data, []byte("Subject:")) || !bytes.Contains(data, []byte("multipart/")) {
		t.Errorf("the saved welcome is not a whole mail: %v\n%s", err, data)
	}
	checkDemoListHeaders(t, out, files)
}

// checkDemoListHeaders: what the demo saved holds a report, a reminder, a
// digest and an observer report (issue 41), and each of them carries
// List-Unsubscribe with the web pages' URI and a mailto:,
// List-Unsubscribe-Post for one click, and List-Id; an answer to a
// player's own mail carries none of them.
func checkDemoListHeaders(t *testing.T, out string, files []string) {
	t.Helper()
	web := regexp.MustCompile(`Follow it on the web: (http\S+)/g/demo`).FindStringSubmatch(out)
	if web == nil {
		t.Fatalf("the demo names no web address:\n%s", out)
	}
	lists := map[string]string{"report": "<demo.orrery.pbem.test>", "reminder": "<demo.orrery.pbem.test>",
		"digest": "<daily.digest.orrery.pbem.test>", "observer": "<demo.orrery.pbem.test>"}
	seen := map[string]int{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		kind := msg.Header.Get("X-Orrery-Kind")
		if kind == "notice" && msg.Header.Get("X-Orrery-Notice") == "reminder" {
			kind = "reminder"
		}
		name := filepath.Base(f)
		list := msg.Header.Get("List-Unsubscribe")
		if kind == "reply" {
			seen[kind]++
			for _, h := range []string{"List-Unsubscribe", "List-Unsubscribe-Post", "List-Id"} {
				if v := msg.Header.Get(h); v != "" {
					t.Errorf("%s, an answer to the player's own mail, carries %s: %s", name, h, v)
				}
			}
			continue
		}
		if _, ok := lists[kind]; !ok {
			continue
		}
		seen[kind]++
		if !strings.HasPrefix(list, "<"+web[1]+"/unsubscribe/") || !strings.Contains(list, ">, <mailto:orrery@pbem.test?subject=UNSUBSCRIBE%20") {
			t.Errorf("%s (%s): List-Unsubscribe %q, want the web pages' URI (%s) and a mailto:", name, kind, list, web[1])
		}
		if p := msg.Header.Get("List-Unsubscribe-Post"); p != "List-Unsubscribe=One-Click" {
			t.Errorf("%s (%s): List-Unsubscribe-Post %q", name, kind, p)
		}
		if id := msg.Header.Get("List-Id"); id != lists[kind] {
			t.Errorf("%s (%s): List-Id %q, want %q", name, kind, id, lists[kind])
		}
	}
	for _, k := range []string{"report", "reminder", "digest", "observer", "reply"} {
		if seen[k] == 0 {
			t.Errorf("the demo saved no %s among %v", k, seen)
		}
	}
}

// The summary shows a mail the bot sent to several players on one line,
// even when a player's answer reached the server between two copies (the
// players answer as soon as their copy arrives, so a loaded machine does
// this); distinct mails of one step stay apart.
func TestDemoSummaryKeepsACopiedMailOnOneLine(t *testing.T) {
	start := time.Now()
	bot := func(to, kind, step, subject string) pbemtest.Mail {
		raw := "From: Orrery <orrery@pbem.test>\r\nTo: " + to + "@example.org\r\nSubject: " + subject + "\r\nX-Orrery-Kind: " + kind + "\r\nX-Orrery-Step: " + step + "\r\n\r\ntext\r\n"
		return pbemtest.Mail{From: "orrery@pbem.test", To: []string{to + "@example.org"}, Data: []byte(raw), At: start}
	}
	player := func(from, text string) pbemtest.Mail {
		raw := "From: " + from + "@example.org\r\nTo: orrery@pbem.test\r\nSubject: [demo x] orders\r\n\r\n" + text + "\r\n"
		return pbemtest.Mail{From: from + "@example.org", To: []string{"orrery@pbem.test"}, Data: []byte(raw), At: start}
	}
	tests := []struct {
		name string
		sent []pbemtest.Mail
		want []string
	}{
		{"adjacent copies", []pbemtest.Mail{
			bot("ann", "welcome", "0", "[demo] Welcome to Toy Race"), bot("bob", "welcome", "0", "[demo] Welcome to Toy Race")},
			[]string{"orrery  ann,bob      welcome  Welcome to Toy Race"}},
		{"an answer between the copies", []pbemtest.Mail{
			bot("ann", "welcome", "0", "[demo] Welcome to Toy Race"), player("ann", "PUSH 2"), bot("bob", "welcome", "0", "[demo] Welcome to Toy Race")},
			[]string{"orrery  ann,bob      welcome  Welcome to Toy Race", "ann     orrery       orders   PUSH 2"}},
		{"two mails to one player", []pbemtest.Mail{
			bot("ann", "reply", "0", "Re: orders"), player("ann", "PUSH 1"), bot("ann", "reply", "0", "Re: orders")},
			[]string{"orrery  ann          reply", "ann     orrery       orders   PUSH 1\n   0.00s  orrery  ann          reply"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			printSummary(&out, tc.sent, start, false)
			for _, want := range tc.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the summary lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

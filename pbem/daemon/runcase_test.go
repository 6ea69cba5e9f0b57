package daemon_test

import (
	"strings"
	"testing"

	"orrery/pbem/command"
	"orrery/pbem/daemon"
)

// runCases are one mail per command of pbem/command's table, run through
// the daemon, and a phrase of the answer its sender gets: the table's
// run case. TestEveryCommandRuns fails for a command without one.
var runCases = map[command.Name]struct {
	from, body, want string
}{
	command.Help:       {"ann", "HELP", "JOIN <game>"},
	command.List:       {"ann", "LIST", "GAMES OPEN TO JOIN"},
	command.Rules:      {"ann", "RULES toy", "Toy Race"},
	command.Join:       {"carl", "JOIN g1", "has started and has no seat open"},
	command.Status:     {"ann", "STATUS", "Still to send: ann and bob"},
	command.Board:      {"ann", "BOARD", "Still to send: ann and bob"},
	command.History:    {"ann", "HISTORY", "this is the report of turn 1 of game g1"},
	command.Resign:     {"ann", "RESIGN", "You resigned from game g1"},
	command.Wait:       {"ann", "WAIT", "will not resolve early"},
	command.Orders:     {"ann", "ORDERS\nPUSH 1", "your orders for game g1 are accepted"},
	command.Preview:    {"ann", "PREVIEW\nPUSH 2", "ann pushes 2+"},
	command.Press:      {"ann", "PRESS TO bob\nhello bob\nEND", "Your press in game g1 went to bob"},
	command.Vacation:   {"ann", "VACATION FROM 2026-12-20 TO 2026-12-24", "Vacation of ann noted from"},
	command.Observe:    {"olga", "OBSERVE g1", "CONFIRM"},
	command.Unobserve:  {"olga", "UNOBSERVE g1", "olga@example.org does not observe g1"},
	command.Resend:     {"ann", "RESEND", "Toy Race — game g1, turn 1"},
	command.Confirm:    {"ann", "CONFIRM", "there are no held orders of yours"},
	command.Set:        {"ann", "SET TZ Europe/Moscow", "I changed TZ"},
	command.Settings:   {"ann", "SETTINGS", "SET LANG"},
	command.MyGames:    {"ann", "MY GAMES", "YOUR RECORD"},
	command.Ping:       {"ann", "PING", "Add orrery@pbem.test to your contacts"},
	command.SendSecret: {"ann", "SECRET g1", "is on its way to you"},
	command.New:        {"ann", "NEW toy", "You opened game toy-"},
	command.Start:      {"ann", "START g1", "only the player who opened g1 may start it early"},
	command.Invite:     {"ann", "INVITE g1 dan@example.org", "only the player who opened g1 may invite others"},
	command.GM:         {"gm", "SECRET gm-secret\nGM PAUSE g1 a break", "Done: GM PAUSE g1 a break"},
}

// TestEveryCommandRuns runs each command's case, in a game of ann and bob
// with a GM, and looks for its phrase in the answer.
func TestEveryCommandRuns(t *testing.T) {
	for _, desc := range command.All {
		t.Run(string(desc.Name), func(t *testing.T) {
			rc, ok := runCases[desc.Name]
			if !ok {
				t.Fatalf("command %s has no run case: add one to runCases", desc.Name)
			}
			h := newHarness(t, func(c *daemon.Config) { c.GM, c.GMSecret = "Game Master <gm@example.org>", "gm-secret" })
			h.flush()
			from := rc.from + "@example.org"
			subject := "hi"
			if rc.from == "ann" {
				subject = "[g1 " + h.secret("ann") + "]"
			}
			got := strings.Join(to(h.say(from, subject, rc.body), from), "\n----\n")
			if !strings.Contains(got, rc.want) {
				t.Errorf("%q from %s: the answer lacks %q:\n%s", rc.body, from, rc.want, got)
			}
		})
	}
	if len(runCases) != len(command.All) {
		t.Errorf("%d run cases for %d commands: a case runs a command the table lacks", len(runCases), len(command.All))
	}
}

package main

import (
	"testing"

	mailcmd "orrery/pbem/command"
)

// TestGMVerbsHaveTheirCLICommand checks pbem/command's GM verbs against
// the command line: each names the `orrery game` command that does the
// same, and it exists (GM LIST and the other queries by mail run it).
func TestGMVerbsHaveTheirCLICommand(t *testing.T) {
	have := map[string]bool{}
	for _, c := range allGameCommands() {
		have[c.name] = true
	}
	for _, v := range mailcmd.GMVerbs {
		if v.CLI == "" || !have[v.CLI] {
			t.Errorf("GM %s names `orrery game %s`, which does not exist", v.Name, v.CLI)
		}
		if v.Query && !mailcmd.IsQuery(v.CLI) {
			t.Errorf("GM %s is a query, but IsQuery(%q) is false", v.Name, v.CLI)
		}
	}
	if mailcmd.IsQuery("pause") {
		t.Error("IsQuery(pause): a GM query by mail could change a game")
	}
}

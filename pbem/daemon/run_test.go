package daemon

import (
	"reflect"
	"testing"

	"orrery/pbem/command"
)

// TestEveryCommandHasARunner walks pbem/command's table: the daemon runs
// each command (and each GM verb), and runs nothing the table lacks.
func TestEveryCommandHasARunner(t *testing.T) {
	for _, desc := range command.All {
		if runners[desc] == nil {
			t.Errorf("command %s has no runner: add it to runners in run.go", desc.Name)
		}
	}
	if len(runners) != len(command.All) {
		t.Errorf("runners has %d entries, command.All %d: a runner runs a command the table lacks", len(runners), len(command.All))
	}
}

// TestEveryChangeHasAChanger checks that the commands run by change are
// exactly those with a changer.
func TestEveryChangeHasAChanger(t *testing.T) {
	change := reflect.ValueOf((*Daemon).change).Pointer()
	for _, desc := range command.All {
		byChange := runners[desc] != nil && reflect.ValueOf(runners[desc]).Pointer() == change
		if _, has := changers[desc]; has != byChange {
			t.Errorf("command %s: run by change %v, has a changer %v", desc.Name, byChange, has)
		}
	}
}

// TestEveryGMVerbHasARunner checks gmVerbs against pbem/command's GMVerbs:
// each verb runs, as a read or a change, and the verbs answered by an
// `orrery game` command (Query) are run by gmQuery.
func TestEveryGMVerbHasARunner(t *testing.T) {
	query := reflect.ValueOf((*Daemon).gmQuery).Pointer()
	for _, v := range command.GMVerbs {
		r, ok := gmVerbs[v.Name]
		switch {
		case !ok:
			t.Errorf("GM %s has no runner: add it to gmVerbs in gmverbs.go", v.Name)
		case (r.read == nil) == (r.change == nil):
			t.Errorf("GM %s must have exactly one of read and change", v.Name)
		case v.Query != (r.read != nil && reflect.ValueOf(r.read).Pointer() == query):
			t.Errorf("GM %s: Query is %v, but run by gmQuery is %v", v.Name, v.Query, !v.Query)
		}
	}
	if len(gmVerbs) != len(command.GMVerbs) {
		t.Errorf("gmVerbs has %d verbs, command.GMVerbs %d", len(gmVerbs), len(command.GMVerbs))
	}
}

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

package daemon

import (
	"strings"
	"testing"

	"orrery/pbem/command"
	"orrery/pbem/route"
)

// TestReadLimitNamesTheReads keeps limitCommands' answer (a sentence with
// its translation, so not built from the table) true to the table: it
// names exactly the commands of the Reads class, in the table's order.
func TestReadLimitNamesTheReads(t *testing.T) {
	var names []string
	for _, d := range command.All {
		if d.Limit == command.Reads {
			names = append(names, string(d.Name))
		}
	}
	want := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + "\x00"
	d := &Daemon{}
	d.cfg.ReadsPerMail = 0
	_, dropped := d.limitCommands(&job{}, &route.Result{Commands: []route.Command{{Name: route.Help, Line: 1}}})
	if len(dropped) != 1 {
		t.Fatalf("HELP with no reads allowed: dropped %+v, want it", dropped)
	}
	if got := dropped[0].Msg + "\x00"; !strings.Contains(got, want) {
		t.Errorf("limitCommands says %q; the Reads of pbem/command are %s: change its sentence (and ru.po)", dropped[0].Msg, strings.TrimSuffix(want, "\x00"))
	}
}

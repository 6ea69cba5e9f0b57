package daemon

import (
	"slices"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/templates"
)

// partial records errs as lines of j's mail not applied (with orders, every
// order line: a ruleset takes a step's orders whole or not at all) and,
// once every command line has run and something else was applied, counts
// them into data, so that the answer opens with "1 of 2 lines applied; fix
// line 2 and send only it": the player who sends everything again would
// apply the rest twice, and one who sends nothing loses the line.
func (j *job) partial(data *templates.Data, errs []engine.LineError, orders bool) {
	r := j.route
	if r == nil {
		return
	}
	if j.refused == nil {
		j.refused, j.fix = map[int]bool{}, map[int]bool{}
	}
	read := map[int]bool{}
	for _, c := range r.Commands {
		read[c.Line] = true
	}
	for _, l := range r.OrderLines {
		read[l.N] = true
		if orders {
			j.refused[l.N] = true
		}
	}
	for _, e := range errs {
		if read[e.Line] {
			j.refused[e.Line], j.fix[e.Line] = true, true
		}
	}
	if !data.Applied || !j.commandsDone || len(j.fix) == 0 {
		return
	}
	data.PartRead = len(read)
	data.PartDone = len(read) - len(j.refused)
	data.PartFixN = len(j.fix)
	data.PartFix, data.PartResend = lineList(j.fix), lineList(j.refused)
}

// lineList is the line numbers of set in order, comma-separated.
func lineList(set map[int]bool) string {
	var ns []int
	for n := range set {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}

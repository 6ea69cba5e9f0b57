package engine

import (
	"slices"

	"orrery/engine/lang"
)

// SeatsNamed lists the seats m names among its string arguments (nested
// messages and lists too), each once, in the order named: whose reports
// open with the event (Event.About). owner says whose a name is: a
// seat's own name, or one of their units or worlds ("" for nobody's),
// so that a ruleset whose events name units rather than seats ("B1 is
// destroyed") still finds them.
func SeatsNamed(m lang.Msg, owner func(name string) string) []string {
	var out []string
	var walk func(args []lang.Arg)
	walk = func(args []lang.Arg) {
		for _, a := range args {
			switch a.Kind() {
			case 's':
				if p := owner(a.Str); p != "" && !slices.Contains(out, p) {
					out = append(out, p)
				}
			case 'm':
				if a.Msg != nil {
					walk(a.Msg.Args)
				}
			case 'l':
				walk(a.List)
			}
		}
	}
	walk(m.Args)
	return out
}

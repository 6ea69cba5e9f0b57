package earthman

import "strings"

// tech is one technology of section 5 with its research track.
type tech struct {
	Name  string
	Max   int // 0: unlimited
	Steps int // successes per level (001-F4)
	// Prereq: "" none; "any1" any one other; "any3" three other different;
	// "nano|any3" Nanotechnology or three others (Von Neumann Engines).
	Prereq string
	Effect string
}

// techs is the technology board, in the rules' order (5.1–5.13).
var techs = []tech{
	{"AI", 0, 7, "any3", "each level: a VP roll (5+) in Score, and one thought a turn to force a re-roll"},
	{"Attack", 3, 5, "", "+1 a level to Open Fire, Defence and Defensive Fire rolls"},
	{"Durability", 3, 5, "", "-1 a level to others' damage rolls against you"},
	{"ActiveDefences", 3, 3, "", "+1 die a level per region in Defence and Defensive Fire"},
	{"Influence", 3, 5, "", "+1 a level to Overthrow rolls"},
	{"Unity", 3, 5, "", "-1 a level to others' Overthrow rolls against you"},
	{"Stability", 3, 5, "", "+1 a level to Pacification rolls"},
	{"Spaceflight", 2, 7, "", "one extra movement pass a level, before the normal one"},
	{"Launch", 1, 7, "", "launch before moving as well as after"},
	{"Research", 3, 5, "", "+1 a level to Research rolls"},
	{"Colonisation", 2, 3, "", "Expansion groups count one more fleet a level"},
	{"Nanotechnology", 2, 5, "any1", "one more development a level on regions you hold"},
	{"VonNeumann", 3, 7, "nano|any3", "house rule: once per world a level, a one-development construction without a Risk roll"},
}

func techByName(s string) (tech, bool) {
	for _, t := range techs {
		if strings.EqualFold(t.Name, s) || strings.EqualFold(strings.ReplaceAll(t.Name, " ", ""), s) {
			return t, true
		}
	}
	return tech{}, false
}

func techNames() []string {
	out := make([]string, len(techs))
	for i, t := range techs {
		out[i] = t.Name
	}
	return out
}

// canResearch says whether a player with levels lv may advance t: its
// prerequisites are met and its maximum not reached.
func canResearch(t tech, lv map[string]int) bool {
	if t.Max > 0 && lv[t.Name] >= t.Max {
		return false
	}
	others := 0
	for _, x := range techs {
		if x.Name != t.Name && lv[x.Name] > 0 {
			others++
		}
	}
	switch t.Prereq {
	case "any1":
		return others >= 1
	case "any3":
		return others >= 3
	case "nano|any3":
		return lv["Nanotechnology"] > 0 || others >= 3
	}
	return true
}

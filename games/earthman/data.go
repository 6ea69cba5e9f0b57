package earthman

import "encoding/json"

// The views as data for the machine-readable report (report.json,
// engine.ViewData). Both editions hide nothing of the board (000-H,
// 001-H): the data holds what Board and Status show, and of the standing
// orders only the reader's own, which are their owner's alone. Keys are
// taken from the state by an allow-list, so a field added to the state
// later stays out of the data until someone decides it may be shown.

// Data is the classic view as data: the places with each faction's fleets
// and developments, the turn, the draw and victory agreements, an open
// interrupt window as Status tells it (its target, the order that waits,
// A and D: never the rest of the active player's turn), the board itself,
// and under "own" the reader's standing orders and tasked units.
func (v *view) Data() any {
	s := v.s
	out := pick(s, "players", "places", "stage", "placers", "placed", "active", "start_seat", "turn", "round",
		"turn_limit", "agree", "interrupts", "outcome")
	if out == nil {
		return nil
	}
	out["board"] = boardData()
	if w := s.Window; w != nil && w.Next < len(w.Orders) {
		out["window"] = map[string]any{"target": w.Target, "order": w.Orders[w.Next], "a": w.A, "d": w.D}
	}
	if p := v.player; p != "" && !v.public {
		own := map[string]any{}
		if x := s.OnCoup[p]; len(x) > 0 {
			own["on_coup"] = x
		}
		if x := s.Tasked[p]; len(x) > 0 {
			own["tasked"] = x
		}
		if x := s.Support[p]; len(x) > 0 {
			own["support"] = x
		}
		if x := s.Courses[p]; len(x) > 0 {
			own["courses"] = x
		}
		if x := s.Triggers[p]; len(x) > 0 {
			own["triggers"] = x
		}
		out["own"] = own
	}
	return out
}

// Data is the full rules' view as data: the regions, fleets, Political
// Influence and each player's tracks (VP, Power, Economy, Discontent, AI,
// Sanctions, technologies and research in progress), the turn, Skynet's
// marker (never its deck), the board, and the reader's own record whole,
// standing orders included.
func (v *fullView) Data() any {
	s := v.s
	out := pick(s, "players", "regions", "pi", "fleets", "stage", "active", "first", "turn", "triggered", "strict",
		"skynet", "rogue", "collab", "territory", "preludes", "outcome")
	if out == nil {
		return nil
	}
	out["board"] = boardData()
	players := map[string]any{}
	for _, p := range s.Players {
		if p == v.player && !v.public {
			players[p] = s.P[p]
			continue
		}
		players[p] = pick(s.P[p], "economy", "discontent", "ai", "vp", "power", "sanctions", "sanction_resources",
			"tech", "progress")
	}
	out["p"] = players
	return out
}

// pick is the JSON object of x with only the given keys (nil if x does not
// encode as an object).
func pick(x any, keys ...string) map[string]any {
	data, err := json.Marshal(x)
	if err != nil {
		return nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := all[k]; ok {
			out[k] = v
		}
	}
	return out
}

// placeData is one place of the board, for report.json.
type placeData struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Regions int    `json:"regions,omitempty"`
	Hostile bool   `json:"hostile,omitempty"`
	Skyward string `json:"skyward,omitempty"` // one move towards the centre
}

// boardData is the board in board order, the centre first, so that a tool
// can draw the disc without the rules.
func boardData() []placeData {
	out := make([]placeData, 0, len(board.Places))
	for _, p := range board.Places {
		out = append(out, placeData{Name: p.Name, Kind: p.Kind.String(), Regions: p.Regions, Hostile: p.Hostile, Skyward: p.Parent})
	}
	return out
}

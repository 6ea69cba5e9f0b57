package prosper

import (
	"encoding/json"

	"orrery/engine/draw"
)

// Data is the view as data for the machine-readable report (report.json,
// engine.ViewData): the whole board, which Prosper hides from nobody, with
// only the reader's own settling plan (a plan is its writer's alone).
func (v *view) Data() any {
	data, err := json.Marshal(v.s)
	if err != nil {
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil
	}
	delete(out, "plans")
	// The step's story as the picture draws it for this reader: an entry
	// told to some seats only is theirs.
	if told := draw.SeenBy(v.s.Story, v.Player()); len(told) > 0 {
		out["story"] = told
	} else {
		delete(out, "story")
	}
	if plan := v.s.Plans[v.player]; v.player != "" && len(plan) > 0 {
		out["plan"] = plan
	}
	return out
}

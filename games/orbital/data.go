package orbital

// Data is the view as data for the machine-readable report (report.json,
// engine.ViewData): the state as this view holds it, which View has
// already stripped of what the player may not see (payloads aboard enemy
// boosters, others' sealed standing orders).
func (v *view) Data() any { return v.s }

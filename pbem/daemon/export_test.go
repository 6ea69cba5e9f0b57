package daemon

import "context"

// GMGuardTick runs the daily report of refused GM commands, as the tick does.
func (d *Daemon) GMGuardTick(ctx context.Context) error { return d.gmGuardTick(ctx) }

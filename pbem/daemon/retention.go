package daemon

import (
	"context"
	"time"

	"orrery/pbem/outbox"
)

// compactEvery is how often the daemon compacts old outbox records.
const compactEvery = time.Hour

// housekeep compacts the outbox's records older than the retention when the
// daemon starts (building the outbox's game index on a database that has
// none) and every compactEvery after, until ctx is done.
func (d *Daemon) housekeep(ctx context.Context) {
	t := time.NewTicker(compactEvery)
	defer t.Stop()
	for {
		st, err := outbox.Compact(d.st, d.cfg.Now(), d.cfg.Retention)
		switch {
		case err != nil && ctx.Err() == nil:
			d.log.Error("outbox: compact old records", "err", err)
		case st != outbox.CompactStats{}:
			d.log.Info("outbox: old records compacted", "indexed", st.Indexed, "compacted", st.Compacted, "forgotten", st.Forgotten, "retention", d.cfg.Retention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

package daemon

import (
	"encoding/json"
	"fmt"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// pressOver is the refusal of press over a seat's budget: its limit, and
// when the oldest press that counts against it turns a day old.
type pressOver struct {
	limit int
	next  time.Time
}

func (e *pressOver) Error() string {
	return fmt.Sprintf("press budget of %d a day spent until %s", e.limit, e.next.Format(time.RFC3339))
}

// lineError words the refusal for the sender: the limit and the time
// press may go again (put in the reader's zone by the templates).
func (e *pressOver) lineError(line int, gameID string) engine.LineError {
	return engine.LineErr(line, "", lang.MN("you have sent %d press message in game %s within a day, the most it relays from one seat",
		"you have sent %d press messages in game %s within a day, the most it relays from one seat", e.limit, gameID),
		lang.M("you can send press again after %s", e.next.UTC()))
}

// pressBudget is the hook that counts a seat's press in the transaction
// that relays it: at most Config.PressPerDay in any 24 hours (a sliding
// day, so the answer can say when the next may go). Over the budget it
// fails with *pressOver, and the transaction, press and mails with it, is
// undone.
func (d *Daemon) pressBudget(gameID, seat string) game.Hook {
	return func(tx store.Tx, _ *game.Change) error {
		b, err := mailBucket(tx, store.BucketMailPressSent)
		if err != nil {
			return err
		}
		now := d.cfg.Now().UTC()
		key := []byte(gameID + "\x00" + seat)
		var times []time.Time
		if v := b.Get(key); v != nil {
			if err := json.Unmarshal(v, &times); err != nil {
				return fmt.Errorf("press budget of %s in %s: %w", seat, gameID, err)
			}
		}
		kept := times[:0]
		for _, t := range times {
			if now.Sub(t) < 24*time.Hour {
				kept = append(kept, t)
			}
		}
		if len(kept) >= d.cfg.PressPerDay {
			return &pressOver{limit: d.cfg.PressPerDay, next: kept[len(kept)-d.cfg.PressPerDay].Add(24 * time.Hour)}
		}
		data, err := json.Marshal(append(kept, now))
		if err != nil {
			return err
		}
		return b.Put(key, data)
	}
}

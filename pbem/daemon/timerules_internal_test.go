package daemon

import (
	"testing"

	"orrery/engine"
)

// NEW takes quiet=23-07 and weekends=off, and refuses weekends=maybe.
func TestNewTakesQuietHoursAndWeekends(t *testing.T) {
	info := engine.Info{Name: "toy", Title: "Toy", MinPlayers: 2, MaxPlayers: 4}
	sp, msg, _ := parseNew(info, []string{"3", "quiet=23-07", "weekends=off"})
	if !msg.IsZero() || sp.settings.QuietHours != "23-07" || !sp.settings.WeekendsOff {
		t.Fatalf("parseNew: %q %+v", msg.English(), sp.settings)
	}
	if _, msg, _ := parseNew(info, []string{"weekends=maybe"}); msg.IsZero() {
		t.Error("weekends=maybe was taken")
	}
}

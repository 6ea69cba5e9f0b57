package daemon

import (
	"testing"
	"time"
)

func TestRateRecords(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)
	times := []time.Time{t0, t0.Add(time.Minute), t0.Add(59 * time.Minute)}
	got := rateTimes(rateRecord(times))
	if len(got) != 3 {
		t.Fatalf("%d times back from 3", len(got))
	}
	for i := range times {
		if !got[i].Equal(times[i]) {
			t.Errorf("time %d: %v back, %v stored", i, got[i], times[i])
		}
	}
	// What an older Orrery wrote: its JSON.
	old := []byte(`{"times":["2026-11-29T12:00:00.123456789Z","2026-11-29T12:01:00Z"]}`)
	if got := rateTimes(old); len(got) != 2 || !got[0].Equal(t0) || !got[1].Equal(t0.Add(time.Minute).Truncate(time.Second)) {
		t.Errorf("an older record read as %v", got)
	}
	// Damaged records count as none.
	for _, v := range [][]byte{nil, {}, {rateTag, 1, 2, 3}, {'{', 'x'}, {7, 0, 0, 0, 0, 0, 0, 0, 0}} {
		if got := rateTimes(v); len(got) != 0 {
			t.Errorf("rateTimes(%q) = %v, want none", v, got)
		}
	}
	if got := rateTimes(rateRecord(nil)); len(got) != 0 {
		t.Errorf("an empty record read as %v", got)
	}
	// The window drops what is an hour old or more.
	kept := withinHour(append([]time.Time(nil), times...), t0.Add(time.Hour+time.Minute))
	if len(kept) != 1 || !kept[0].Equal(times[2]) {
		t.Errorf("an hour and a minute on, %v kept", kept)
	}
}

package daemon

import (
	"encoding/binary"
	"encoding/json"
	"time"
)

// A rate record (mail/rate, mail/pingpong) is the times of the answers
// counted against one limit within the last hour. It is read and written
// for every answer, and an address can have hundreds within the hour (a
// raised replies_per_hour, a busy GM): the times are kept as a tag byte
// and then 8 bytes each (Unix nanoseconds, big-endian), not as JSON, which
// was 2–3% of the daemon's CPU in a busy drain. Records older Orrerys wrote
// as JSON ({"times":[...]}) are still read.
const rateTag = 0x01

// rateTimes reads a stored rate record; nil for none or one that cannot be
// read (a limit then starts afresh: nothing is lost but a count).
func rateTimes(v []byte) []time.Time {
	switch {
	case len(v) == 0:
		return nil
	case v[0] == '{':
		var r struct {
			Times []time.Time `json:"times"`
		}
		if json.Unmarshal(v, &r) != nil {
			return nil
		}
		return r.Times
	case v[0] != rateTag || (len(v)-1)%8 != 0:
		return nil
	}
	out := make([]time.Time, 0, (len(v)-1)/8+1) // room for the one added
	for b := v[1:]; len(b) >= 8; b = b[8:] {
		out = append(out, time.Unix(0, int64(binary.BigEndian.Uint64(b))).UTC())
	}
	return out
}

// rateRecord is times as stored.
func rateRecord(times []time.Time) []byte {
	out := make([]byte, 1, 1+8*len(times))
	out[0] = rateTag
	for _, t := range times {
		out = binary.BigEndian.AppendUint64(out, uint64(t.UnixNano()))
	}
	return out
}

// withinHour keeps the times less than an hour before now, in place.
func withinHour(times []time.Time, now time.Time) []time.Time {
	kept := times[:0]
	for _, t := range times {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	return kept
}

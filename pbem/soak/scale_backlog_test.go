//go:build soak

package soak

import "testing"

// scaleBacklog drains m order mails to the daemon on db, sent by one seat
// of each game of f, against the raw limits (partBacklog's drain).
func scaleBacklog(t *testing.T, s stack, db string, f *fleet, m int, add func(figure, value, target string, met *bool)) {
	bl := openBacklog(t, s, db, "orrery-scale-"+nonce()+"@"+s.Domain, m)
	defer bl.st.Close()
	bl.drain(t, s, f, add)
}

//go:build soak

package soak

import "testing"

// scaleBacklog drains m order mails to daemons daemons on db (more than
// one only on PostgreSQL), sent by one seat of each game of f, against
// the raw limits (partBacklog's drain).
func scaleBacklog(t *testing.T, s stack, db string, f *fleet, m, daemons int, add func(figure, value, target string, met *bool)) {
	bl := openBacklog(t, s, db, "orrery-scale-"+nonce()+"@"+s.Domain, m, daemons)
	defer bl.close()
	bl.drain(t, s, f, add)
}

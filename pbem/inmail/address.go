package inmail

import (
	"net/mail"
	"strings"
)

// Bare is the address alone of addr, which may be written with a display
// name ("Ann <ann@example.org>") as people paste it and config files keep
// it; an addr that is not an address is returned trimmed, as written.
// Compare the result with game.CanonAddress.
func Bare(addr string) string {
	addr = strings.TrimSpace(addr)
	if a, err := mail.ParseAddress(addr); err == nil {
		return a.Address
	}
	return addr
}

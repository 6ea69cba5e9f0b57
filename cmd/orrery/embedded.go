package main

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The ports serve --embedded listens on unless told otherwise: the same
// at every start, so that a mail client set up once keeps working. They
// are neither the standard ports (143 and 25 need root) nor the common
// local ones (1143 and 1025 are Proton Mail Bridge's, 3143 and 3025
// GreenMail's, 2525 this project's scripts/mailstack.sh).
const (
	embeddedIMAPAddr = "127.0.0.1:2143"
	embeddedSMTPAddr = "127.0.0.1:2587"
)

// embeddedOptions say where the embedded servers listen and keep things.
type embeddedOptions struct {
	DB      string // bbolt file or postgres:DSN; "": a temporary file
	HTTP    string // the web pages' address; "": none
	Metrics string // metrics.listen; "": none
	// IMAP and SMTP are the mail servers' addresses ("": any free
	// loopback port); MailDir keeps their mailboxes ("": in memory).
	IMAP, SMTP, MailDir string
	// Now is the daemon's and the games' clock (nil: time.Now); the
	// demo's runs ahead to show reminders and digests (demoClock).
	Now func() time.Time
	// TickEvery is how often the daemon runs deadlines and reminders (0:
	// every second); the demo, whose clock jumps, ticks at once after.
	TickEvery time.Duration
}

// checkAddr says what is wrong with a host:port given to flag name.
func checkAddr(name, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || strings.Contains(port, ":") {
		return fmt.Errorf("--%s %q: want host:port, as %s", name, addr, embeddedIMAPAddr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("--%s %q: the port must be a number from 0 to 65535 (0: any free port)", name, addr)
	}
	if host == "" {
		return fmt.Errorf("--%s %q: name the host, as 127.0.0.1%s (an empty one is every interface: the servers have no encryption and take any login)", name, addr, addr)
	}
	return nil
}

// pickAddr is where the server of flag name listens: addr when it is
// free. A default (given false) that is taken, by another program or a
// second serve --embedded, falls back to a free port with note saying
// so; an address the user gave must be free.
func pickAddr(name, addr string, given bool) (got, note string, err error) {
	if err := checkAddr(name, addr); err != nil {
		return "", "", err
	}
	host, port, _ := net.SplitHostPort(addr)
	if port == "0" {
		return addr, "", nil
	}
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		ln.Close()
		return addr, "", nil
	}
	if given {
		return "", "", fmt.Errorf("--%s %s: cannot listen there (%v); is another orrery serve --embedded running? Stop it or choose another port", name, addr, err)
	}
	server := strings.ToUpper(strings.TrimSuffix(name, "-addr"))
	note = fmt.Sprintf("orrery: port %s is taken, so %s is on another port for this run only: a mail client set up for %s will not reach it (stop what holds %s, or choose with --%s)\n",
		port, server, port, port, name)
	return net.JoinHostPort(host, "0"), note, nil
}

// mailDirBeside is where serve --embedded keeps the mailboxes of the
// bbolt file db: beside it, orrery-embedded.mail for orrery-embedded.db.
func mailDirBeside(db string) string {
	dir := strings.TrimSuffix(db, filepath.Ext(db)) + ".mail"
	if dir == db {
		dir += ".mail"
	}
	return dir
}

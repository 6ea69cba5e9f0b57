package outbox

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/wneessen/go-mail"
)

// Probe checks that the SMTP server can be reached: it connects, reads the
// greeting, says EHLO (and STARTTLS or TLS as configured) and quits,
// without logging in or sending. /readyz uses it when no mail has gone out
// for a while.
func (s *SMTP) Probe(ctx context.Context) error {
	host, portStr, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return fmt.Errorf("smtp address %q: %w", s.Addr, err)
	}
	port, _ := strconv.Atoi(portStr)
	timeout := s.Timeout
	if timeout == 0 || timeout > 10*time.Second {
		timeout = 10 * time.Second
	}
	opts := []mail.Option{mail.WithPort(port), mail.WithTimeout(timeout), mail.WithoutNoop()}
	switch s.TLS {
	case "implicit":
		opts = append(opts, mail.WithSSL())
	case "starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	}
	if s.HELO != "" {
		opts = append(opts, mail.WithHELO(s.HELO))
	}
	c, err := mail.NewClient(host, opts...)
	if err != nil {
		return err
	}
	if err := c.DialWithContext(ctx); err != nil {
		return fmt.Errorf("smtp %s: %w", s.Addr, err)
	}
	return c.Close()
}

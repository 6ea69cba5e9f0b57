package outbox

import (
	"context"
	"fmt"
	"time"

	"github.com/wneessen/go-mail"
)

// Probe checks that the SMTP server can be reached: it connects, reads the
// greeting, says EHLO (and STARTTLS or TLS as configured) and quits,
// without logging in or sending. /readyz uses it when no mail has gone out
// for a while.
func (s *SMTP) Probe(ctx context.Context) error {
	host, _, opts, err := s.options(10*time.Second, 10*time.Second, false)
	if err != nil {
		return err
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

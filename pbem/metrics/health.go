package metrics

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Health says how /readyz checks the daemon's parts.
type Health struct {
	// DB checks that the database is open and answers.
	DB func(ctx context.Context) error
	// ProbeSMTP connects to the SMTP server (its greeting and EHLO). It
	// runs only when no mail was accepted within SMTPWithin, at most
	// once every ten seconds.
	ProbeSMTP func(ctx context.Context) error
	// ReadsIMAP says that this process holds the IMAP reader: then its
	// session must be up. (With several daemons on one mailbox, only the
	// one that reads it is held to this.)
	ReadsIMAP bool
}

// SMTPWithin is how recent the SMTP server's last answer must be for
// /readyz.
const SMTPWithin = time.Minute

const probeEvery = 10 * time.Second

// Register adds /metrics, /healthz and /readyz to mux. The mux may carry
// other handlers (the web pages, when their listen address is the same).
func (m *Daemon) Register(mux *http.ServeMux, h Health) {
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	p := &prober{m: m, h: h}
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		problems := p.check(r.Context())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if len(problems) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "not ready:\n- %s\n", strings.Join(problems, "\n- "))
			return
		}
		fmt.Fprintln(w, "ready")
	})
}

// prober runs /readyz's checks; the SMTP probe's result is kept for
// probeEvery, so a scraper polling /readyz does not hammer the server.
type prober struct {
	m *Daemon
	h Health

	probed   time.Time
	probeErr error
}

func (p *prober) check(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var out []string
	if p.h.DB != nil {
		if err := p.h.DB(ctx); err != nil {
			out = append(out, "database: "+err.Error())
		}
	}
	now := p.m.now()
	p.m.mu.Lock()
	last, imapUp := p.m.lastSMTP, p.m.imap
	p.m.mu.Unlock()
	if now.Sub(last) > SMTPWithin && p.h.ProbeSMTP != nil {
		p.m.mu.Lock()
		stale := now.Sub(p.probed) >= probeEvery
		p.m.mu.Unlock()
		if stale {
			err := p.h.ProbeSMTP(ctx)
			p.m.mu.Lock()
			p.probed, p.probeErr = now, err
			p.m.mu.Unlock()
			if err == nil {
				p.m.SMTPReachable(now)
			}
		}
		p.m.mu.Lock()
		err := p.probeErr
		p.m.mu.Unlock()
		if err != nil {
			out = append(out, fmt.Sprintf("smtp: not reachable within the last %v: %v", SMTPWithin, err))
		}
	}
	if p.h.ReadsIMAP && !imapUp {
		out = append(out, "imap: the session is not up (connecting, or reconnecting after a loss)")
	}
	return out
}

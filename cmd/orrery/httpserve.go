package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"time"

	"orrery/engine/store"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/metrics"
	"orrery/pbem/outbox"
)

// httpServers gathers the HTTP handlers of one process by listen address:
// metrics.listen today, and the web pages' listen key when they come. Two
// keys that name the same address share one listener and one mux; each
// other address gets its own. A command registers its handlers with Mux,
// then calls Start once.
type httpServers struct {
	muxes map[string]*http.ServeMux
}

func newHTTPServers() *httpServers { return &httpServers{muxes: map[string]*http.ServeMux{}} }

// Mux is the mux served at addr, made on first use.
func (h *httpServers) Mux(addr string) *http.ServeMux {
	m := h.muxes[addr]
	if m == nil {
		m = http.NewServeMux()
		h.muxes[addr] = m
	}
	return m
}

// Start listens on every address at once (a port in use is an error now,
// not later) and serves until ctx is done; it returns the bound address of
// each (a port 0 resolved) and a wait function for the shutdown.
func (h *httpServers) Start(ctx context.Context, log *slog.Logger) (map[string]string, func(), error) {
	addrs := make([]string, 0, len(h.muxes))
	for a := range h.muxes {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	var lns []net.Listener
	bound := map[string]string{}
	for _, a := range addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, nil, fmt.Errorf("listen on %s: %w", a, err)
		}
		lns = append(lns, ln)
		bound[a] = ln.Addr().String()
	}
	done := make(chan struct{}, len(lns))
	for i, ln := range lns {
		srv := &http.Server{Handler: h.muxes[addrs[i]], ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		go func() {
			defer func() { done <- struct{}{} }()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("http", "addr", ln.Addr().String(), "err", err)
			}
		}()
		context.AfterFunc(ctx, func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(sctx)
		})
	}
	wait := func() {
		for range lns {
			<-done
		}
	}
	return bound, wait, nil
}

// newMetrics makes a daemon's metrics over the outbox of st (nil when addr
// is "": metrics off).
func newMetrics(addr string, st *store.Store) *metrics.Daemon {
	if addr == "" {
		return nil
	}
	return metrics.New(func() (int, time.Time, error) { return outbox.Depth(st) })
}

// metricsOutbox adds m's hooks to outbox options.
func metricsOutbox(m *metrics.Daemon, opt outbox.Options) outbox.Options {
	if m == nil {
		return opt
	}
	opt.OnSent = func(r outbox.Record) { m.Sent(r.Sent, r.Received) }
	opt.OnFailed = func(_ outbox.Item, _ error, dead bool) { m.SendFailed(dead) }
	return opt
}

// metricsReader makes the IMAP reader report its session to m.
func metricsReader(m *metrics.Daemon, r *imapin.Reader) {
	if m == nil {
		return
	}
	r.Connected = func(uint32) { m.IMAPUp() }
	r.Lost = func(error) { m.IMAPLost() }
}

// addMetrics puts /metrics, /healthz and /readyz of d on the mux of hs
// for addr; the caller starts hs with its other handlers.
func addMetrics(hs *httpServers, addr string, d *daemon.Daemon, st *store.Store, probe func(context.Context) error) {
	d.Metrics().Register(hs.Mux(addr), metrics.Health{
		DB:        func(ctx context.Context) error { return st.View(ctx, func(store.Tx) error { return nil }) },
		ProbeSMTP: probe,
		ReadsIMAP: true,
	})
}

// serveMetrics serves /metrics, /healthz and /readyz of d at addr until ctx
// is done, and says where. It returns the bound address and a wait for the
// shutdown. (A command with more HTTP handlers builds its httpServers with
// addMetrics and its own, and starts them once.)
func serveMetrics(ctx context.Context, e *env, addr string, d *daemon.Daemon, st *store.Store, probe func(context.Context) error, log *slog.Logger) (string, func(), error) {
	hs := newHTTPServers()
	addMetrics(hs, addr, d, st, probe)
	bound, wait, err := hs.Start(ctx, log)
	if err != nil {
		return "", nil, fmt.Errorf("metrics.listen: %w", err)
	}
	fmt.Fprintf(e.stdout, "orrery: metrics on http://%s/metrics (health: /healthz, /readyz)\n", bound[addr])
	return bound[addr], wait, nil
}

package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Limits of the HTTP server. A page is a small GET: a client that takes
// longer than these to send its request or read the answer is holding a
// connection for nothing.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 16 << 10
	// ShutdownGrace is how long a stopping daemon lets requests in
	// flight finish.
	ShutdownGrace = 5 * time.Second
)

// NewServer wraps h in an http.Server with the timeouts and limits above.
// Request bodies are refused by Site itself (pages carry none).
func NewServer(h http.Handler, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Serve answers on ln until ctx is done, then stops taking connections and
// lets the requests in flight finish (up to ShutdownGrace) before it
// returns: the daemon's shutdown waits for it.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	srv := NewServer(h, log)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("web server on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("stop the web server on %s: %w", ln.Addr(), err)
	}
	return nil
}

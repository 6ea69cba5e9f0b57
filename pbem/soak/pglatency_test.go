//go:build soak

package soak

import (
	"context"
	"flag"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"
)

var flagScalePGLatency = flag.Duration("scale.pglatency", 0, "scale: put PostgreSQL this far away (each way) behind an in-process delaying proxy, as a database on another machine is; e.g. 500us")

// delayPG starts, when -scale.pglatency is set, a proxy on loopback that
// forwards to the server dsn names and delivers every chunk of bytes,
// each way, that much later than it came (a delay line: chunks in
// flight overlap, as on a network, so a batch of statements pays the
// delay once), and returns the DSN through it; the PostgreSQL figures
// are then those of a database as far from the daemon as a network
// puts it. The loopback's own trips cost less than the statements' work,
// so on loopback a round trip saved hardly shows.
func delayPG(t *testing.T, dsn string, delay time.Duration) string {
	t.Helper()
	if delay <= 0 || dsn == "" {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("-scale.pg: %v", err)
	}
	target := u.Host
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			wg.Go(func() { delayCopy(ctx, s, c, delay); s.Close(); c.Close() })
			wg.Go(func() { delayCopy(ctx, c, s, delay); s.Close(); c.Close() })
		}
	})
	u.Host = ln.Addr().String()
	t.Logf("PostgreSQL behind a proxy adding %v each way (%s → %s)", delay, u.Host, target)
	return u.String()
}

// delayCopy copies from src to dst, each chunk written delay after it
// was read.
func delayCopy(ctx context.Context, dst io.Writer, src io.Reader, delay time.Duration) {
	type chunk struct {
		b   []byte
		due time.Time
	}
	line := make(chan chunk, 1024)
	go func() {
		defer close(line)
		for {
			buf := make([]byte, 64<<10)
			n, err := src.Read(buf)
			if n > 0 {
				select {
				case line <- chunk{buf[:n], time.Now().Add(delay)}:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range line {
		if d := time.Until(c.due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		if _, err := dst.Write(c.b); err != nil {
			return
		}
	}
}

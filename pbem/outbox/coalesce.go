package outbox

import (
	"context"
	"net"
)

// coalesceMax bounds the bytes a coalescing connection holds back.
const coalesceMax = 64 << 10

// coalescingConn holds back what is written to it until the other side
// must answer (the next Read), the held bytes reach coalesceMax, or the
// connection closes. go-mail writes through a 4 KB buffer, so a report of
// 40 KB went out in ten writes, each a system call and, on loopback, a
// pass through the whole TCP stack and a wake-up of the server's smtpd;
// SMTP is a dialogue (a command, then its answer: no pipelining here), so
// a client only needs its bytes sent by the time it reads the answer.
// A write error surfaces at that Read (or Close), where the client looks
// for the server's answer anyway.
type coalescingConn struct {
	net.Conn
	buf []byte
	err error // the first failed write: every later Read and Write fails with it
}

func (c *coalescingConn) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if len(c.buf)+len(p) > coalesceMax {
		if err := c.flush(); err != nil {
			return 0, err
		}
		if len(p) >= coalesceMax {
			return c.send(p)
		}
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

func (c *coalescingConn) Read(p []byte) (int, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

func (c *coalescingConn) Close() error {
	c.flush() // the server may still take a QUIT; a failure changes nothing now
	return c.Conn.Close()
}

func (c *coalescingConn) flush() error {
	if c.err != nil || len(c.buf) == 0 {
		return c.err
	}
	_, err := c.send(c.buf)
	c.buf = c.buf[:0]
	return err
}

// send writes p whole to the connection (net.Conn's Write writes all of
// p or fails).
func (c *coalescingConn) send(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// dialCoalescing dials an SMTP server for go-mail: a TCP connection whose
// writes are coalesced (coalescingConn).
func dialCoalescing(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &coalescingConn{Conn: conn}, nil
}

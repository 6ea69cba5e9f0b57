package outbox

import (
	"context"
	"runtime"
)

// Drawing the board pictures ahead of the sending. A report's PNG costs
// 5–7 ms of CPU (BenchmarkPicture/png of each game; 8–12 ms when this was
// written), several times what composing and sending its mail costs, and
// the connection's one
// goroutine drew each picture just before sending its mail: one daemon
// with the default single connection drew on one core at a time, about
// 100 pictures a second whatever the machine (a 10-game backlog drain
// with pictures left the 2 cores 22% idle). The pictures of a batch are
// now drawn by up to Drawers goroutines at once, in the mails' order,
// while the mails go out in order as their pictures come ready.

// drawn is one mail's picture, ready when done is closed (png nil: none,
// or its drawing failed, and the mail goes without it).
type drawn struct {
	png  []byte
	done chan struct{}
}

// drawAhead starts drawing the pictures mails ask for and returns a slot
// for each mail (nil when no mail asks for one or s draws none). Closing
// stop, or ctx ending, stops the drawing of pictures not yet begun; their
// slots are never done, so the caller waits on ctx or stop as well.
func (s *SMTP) drawAhead(ctx context.Context, mails []Mail, stop <-chan struct{}) []drawn {
	if s.Pictures == nil {
		return nil
	}
	slots := make([]drawn, len(mails))
	n := 0
	for i, m := range mails {
		if m.Picture != nil {
			slots[i].done = make(chan struct{})
			n++
		}
	}
	if n == 0 {
		return nil
	}
	workers := s.Drawers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	work := make(chan int)
	go func() {
		defer close(work)
		for i := range slots {
			if slots[i].done == nil {
				continue
			}
			select {
			case work <- i:
			case <-stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	for range min(workers, n) {
		go func() {
			for i := range work {
				slots[i].png, _ = s.Pictures(ctx, *mails[i].Picture)
				close(slots[i].done)
			}
		}()
	}
	return slots
}

// picture waits for mail i's picture; nil when it has none or ctx ended
// first.
func picture(ctx context.Context, slots []drawn, i int) []byte {
	if slots == nil || slots[i].done == nil {
		return nil
	}
	select {
	case <-slots[i].done:
		return slots[i].png
	case <-ctx.Done():
		return nil
	}
}

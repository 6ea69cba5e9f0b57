package outbox_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// A batch's pictures are drawn several at once, ahead of the sending, and
// the mails still go out in their order, each with its own picture: the
// drawing func here waits until three callers are in it together, which
// a sender drawing each picture just before its mail never reaches. A
// picture that fails to draw leaves its mail without one.
func TestPicturesDrawnAheadTogether(t *testing.T) {
	ctx := context.Background()
	srv := pbemtest.StartT(t, pbemtest.Options{})
	const together = 3
	var mu sync.Mutex
	in, most, met := 0, 0, false
	all := make(chan struct{})
	s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", Drawers: together,
		Pictures: func(ctx context.Context, p outbox.Picture) ([]byte, error) {
			mu.Lock()
			in++
			most = max(most, in)
			if in == together && most == together && !met {
				met = true
				close(all)
			}
			mu.Unlock()
			defer func() { mu.Lock(); in--; mu.Unlock() }()
			select {
			case <-all:
			case <-time.After(5 * time.Second):
				return nil, errors.New("drawn alone: no other picture was being drawn")
			}
			if p.Step == 4 {
				return nil, errors.New("this one fails to draw")
			}
			return fmt.Appendf(nil, "\x89PNG picture of step %d", p.Step), nil
		}}
	defer s.CloseIdle()
	var batch []outbox.Mail
	for i := range 6 {
		m := mail(i)
		m.HTML = fmt.Sprintf(`<p>board</p><img src="cid:board%d@x" alt="board">`, i)
		m.Picture = &outbox.Picture{Game: "g1", Step: uint64(i), Player: "p", ContentID: fmt.Sprintf("board%d@x", i), Name: "board.png"}
		batch = append(batch, m)
	}
	for i, err := range s.Send(ctx, batch) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if most < together {
		t.Errorf("at most %d pictures drawn at once, want %d", most, together)
	}
	sent := srv.Sent()
	if len(sent) != len(batch) {
		t.Fatalf("%d mails sent, want %d", len(sent), len(batch))
	}
	for i, m := range sent {
		if want := fmt.Sprintf("p%d@example.org", i); len(m.To) != 1 || m.To[0] != want {
			t.Errorf("mail %d went to %v, want %s: out of order", i, m.To, want)
		}
		png := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "\x89PNG picture of step %d", i))
		has := bytes.Contains(unfold(m.Data), []byte(png))
		switch {
		case i == 4 && has:
			t.Errorf("mail 4 carries a picture that failed to draw")
		case i == 4 && bytes.Contains(m.Data, []byte("cid:board4@x")):
			t.Errorf("mail 4 still shows the picture it lacks")
		case i != 4 && !has:
			t.Errorf("mail %d lacks its own picture:\n%s", i, m.Data)
		}
	}
}

// unfold joins a base64 body's lines.
func unfold(b []byte) []byte {
	return []byte(strings.NewReplacer("\r\n", "", "\n", "").Replace(string(b)))
}

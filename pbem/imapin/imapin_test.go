package imapin_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

const bot = "bot@pbem.test"

func raw(i int) []byte {
	return []byte(fmt.Sprintf("From: p@example.org\r\nTo: %s\r\nSubject: m%d\r\nMessage-ID: <m%d@example.org>\r\n\r\nbody %d\r\n", bot, i, i, i))
}

type seen struct {
	mu   sync.Mutex
	msgs []imapin.Message
	ch   chan struct{}
}

func newSeen() *seen { return &seen{ch: make(chan struct{}, 1000)} }

func (s *seen) handler(disp func(imapin.Message) imapin.Disposition) imapin.Handler {
	return func(ctx context.Context, m imapin.Message) (imapin.Disposition, error) {
		s.mu.Lock()
		s.msgs = append(s.msgs, m)
		s.mu.Unlock()
		s.ch <- struct{}{}
		if disp == nil {
			return imapin.Processed, nil
		}
		return disp(m), nil
	}
}

func (s *seen) wait(t *testing.T, n int, within time.Duration) []imapin.Message {
	t.Helper()
	deadline := time.After(within)
	for {
		s.mu.Lock()
		got := len(s.msgs)
		s.mu.Unlock()
		if got >= n {
			s.mu.Lock()
			defer s.mu.Unlock()
			return append([]imapin.Message(nil), s.msgs...)
		}
		select {
		case <-s.ch:
		case <-deadline:
			t.Fatalf("handled %d of %d messages in %v", got, n, within)
		}
	}
}

func start(t *testing.T, srv *pbemtest.Server, cfg imapin.Config, h imapin.Handler, setup ...func(*imapin.Reader)) {
	t.Helper()
	cfg.Addr = srv.IMAPAddr
	cfg.TLS = "none"
	cfg.Credentials = func(context.Context) (string, string, error) { return bot, "pw", nil }
	cfg.MinBackoff = 20 * time.Millisecond
	if cfg.IdleRestart == 0 {
		cfg.IdleRestart = 2 * time.Second // see Config.IdleRestart
	}
	cfg.MaxBackoff = 200 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	r := imapin.New(cfg)
	for _, f := range setup {
		f(r)
	}
	go func() { r.Run(ctx, h); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("reader did not stop when its context was cancelled")
		}
	})
}

func TestIdleMovesAndFiles(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	for i := 1; i <= 3; i++ {
		srv.Append(bot, "INBOX", raw(i))
	}
	s := newSeen()
	// IDLE is restarted only once a minute here, so the fourth message
	// arriving within the wait below was pushed, not found by a restart.
	start(t, srv, imapin.Config{IdleRestart: time.Minute}, s.handler(func(m imapin.Message) imapin.Disposition {
		if strings.Contains(string(m.Raw), "Subject: m2") {
			return imapin.Rejected
		}
		return imapin.Processed
	}))
	got := s.wait(t, 3, 5*time.Second)
	for i, m := range got {
		if !strings.Contains(string(m.Raw), fmt.Sprintf("body %d", i+1)) || m.UIDValidity == 0 {
			t.Errorf("message %d: %+v", i, m)
		}
	}
	// A message arriving while the reader idles is pushed to it.
	srv.Append(bot, "INBOX", raw(4))
	s.wait(t, 4, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := srv.WaitMessages(ctx, bot, "Orrery/Processed", 3); err != nil {
		t.Fatal(err)
	}
	rej, err := srv.WaitMessages(ctx, bot, "Orrery/Rejected", 1)
	if err != nil || !strings.Contains(string(rej[0]), "Subject: m2") {
		t.Fatalf("rejected folder: %v %q", err, rej)
	}
	if in, _ := srv.Messages(bot, "INBOX"); len(in) != 0 {
		t.Errorf("%d messages left in the inbox", len(in))
	}
}

// Without MOVE nothing is deleted: the original stays, flagged, and is not
// handled twice.
func TestCopyFallbackWithoutMove(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}, NoMove: true})
	srv.Append(bot, "INBOX", raw(1))
	s := newSeen()
	// Looks at the inbox that handed nothing over, after both were seen.
	emptyLooks := make(chan struct{}, 100)
	start(t, srv, imapin.Config{Poll: true, PollInterval: 30 * time.Millisecond}, s.handler(nil), func(r *imapin.Reader) {
		r.Looked = func(n int) {
			if n == 0 {
				select {
				case emptyLooks <- struct{}{}:
				default:
				}
			}
		}
	})
	s.wait(t, 1, 5*time.Second)
	srv.Append(bot, "INBOX", raw(2))
	s.wait(t, 2, 5*time.Second)
	for len(emptyLooks) > 0 { // looks before the second was seen
		<-emptyLooks
	}
	for range 3 { // three polls more, each of which could offer a copy again
		select {
		case <-emptyLooks:
		case <-time.After(5 * time.Second):
			t.Fatal("the reader stopped polling")
		}
	}
	if n := len(s.wait(t, 2, time.Second)); n != 2 {
		t.Errorf("handled %d times, want 2", n)
	}
	if in, _ := srv.Messages(bot, "INBOX"); len(in) != 2 {
		t.Errorf("inbox has %d messages, want both originals kept", len(in))
	}
	if p, _ := srv.Messages(bot, "Orrery/Processed"); len(p) != 2 {
		t.Errorf("processed has %d", len(p))
	}
}

// The reader survives the server going away and picks up mail that arrived
// meanwhile; a recreated mailbox (new UIDVALIDITY) is read too.
func TestReconnectAndUIDValidity(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	s := newSeen()
	start(t, srv, imapin.Config{}, s.handler(func(imapin.Message) imapin.Disposition { return imapin.Keep }))
	srv.Append(bot, "INBOX", raw(1))
	first := s.wait(t, 1, 5*time.Second)[0]
	srv.StopIMAP() // the reader's next dials fail until StartIMAP
	if err := srv.Recreate(bot, "INBOX"); err != nil {
		t.Fatal(err)
	}
	srv.Append(bot, "INBOX", raw(2))
	if err := srv.StartIMAP(); err != nil {
		t.Fatal(err)
	}
	got := s.wait(t, 2, 5*time.Second)
	if !strings.Contains(string(got[1].Raw), "body 2") {
		t.Fatalf("after reconnect got %q", got[1].Raw)
	}
	if got[1].UIDValidity == first.UIDValidity {
		t.Errorf("UIDVALIDITY %d did not change", first.UIDValidity)
	}
}

// A wrong password at start stops Run with ErrLogin instead of retrying
// forever.
func TestWrongPasswordStops(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none",
		Credentials: func(context.Context) (string, string, error) { return bot, "wrong", nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := r.Run(ctx, func(context.Context, imapin.Message) (imapin.Disposition, error) { return imapin.Keep, nil })
	if !errors.Is(err, imapin.ErrLogin) || !strings.Contains(err.Error(), bot) {
		t.Errorf("Run: %v", err)
	}
}

// TestFailedMessageRetriedInTheSameSession: a handler error (a full disk,
// say) leaves the message in the inbox, and it is offered again after
// RetryFailed without waiting for a reconnect.
func TestFailedMessageRetriedInTheSameSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  imapin.Config
	}{
		{"poll", imapin.Config{Poll: true, PollInterval: time.Hour, RetryFailed: 100 * time.Millisecond}},
		// IDLE restarts only hourly here, so the retry must cut it short.
		{"idle", imapin.Config{IdleRestart: time.Hour, RetryFailed: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
			srv.Append(bot, "INBOX", raw(1))
			var mu sync.Mutex
			calls := 0
			done := make(chan struct{}, 1)
			h := func(ctx context.Context, m imapin.Message) (imapin.Disposition, error) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if calls == 1 {
					return 0, errors.New("no space left on device")
				}
				done <- struct{}{}
				return imapin.Processed, nil
			}
			start(t, srv, tc.cfg, h)
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the failed message was not offered again in the same session")
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				p, _ := srv.Messages(bot, "Orrery/Processed")
				if len(p) == 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("processed has %d messages, want the retried one", len(p))
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// Sizes come first: a mail over MaxSize is handed over as its header
// alone (Truncated), the others whole, in UID order, no more bytes fetched
// whole at once than BatchBytes (one mail always), and all are filed.
func TestOversizeMailNotFetched(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	big := func(i, n int) []byte {
		return append(raw(i)[:len(raw(i))-2], []byte(strings.Repeat("0123456789abcde\n", n/16)+"\r\n")...)
	}
	msgs := [][]byte{raw(1), big(2, 3<<20), big(3, 300<<10), big(4, 300<<10), raw(5)}
	for _, m := range msgs {
		srv.Append(bot, "INBOX", m)
	}
	s := newSeen()
	start(t, srv, imapin.Config{Poll: true, PollInterval: 50 * time.Millisecond, MaxSize: 1 << 20, BatchBytes: 400 << 10},
		s.handler(func(m imapin.Message) imapin.Disposition {
			if m.Truncated {
				return imapin.Rejected
			}
			return imapin.Processed
		}))
	got := s.wait(t, 5, 10*time.Second)
	for i, m := range got {
		want := msgs[i]
		switch {
		case !strings.Contains(string(m.Raw), fmt.Sprintf("Subject: m%d\r\n", i+1)):
			t.Errorf("message %d handled out of order: %.60q", i+1, m.Raw)
		case i == 1 && (!m.Truncated || len(m.Raw) > 200 || !strings.HasSuffix(string(m.Raw), "\r\n\r\n") || m.Size < 3<<20):
			t.Errorf("the 3 MB mail: truncated %v, %d bytes handed, size %d", m.Truncated, len(m.Raw), m.Size)
		case i != 1 && (m.Truncated || len(m.Raw) != len(want)):
			t.Errorf("message %d: truncated %v, %d of %d bytes", i+1, m.Truncated, len(m.Raw), len(want))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if rej, err := srv.WaitMessages(ctx, bot, "Orrery/Rejected", 1); err != nil || len(rej[0]) < 3<<20 {
		t.Errorf("the big mail is not in the rejected folder whole: %v", err)
	}
}

package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := http.Get(srv.URL + path)
	require.NoError(t, err)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// Every counter the daemon feeds shows on /metrics under its name, with
// the outbox read at the scrape; two daemons do not share counts.
func TestMetricsNamesAndValues(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	m := New(func() (int, time.Time, error) { return 4, now.Add(-90 * time.Second), nil })
	m.now = func() time.Time { return now }
	other := New(nil)
	other.MailReceived()

	m.MailReceived()
	m.MailReceived()
	m.MailAnswered()
	m.MailSilenced("automatic")
	m.MailRejected("gm_refused")
	m.Sent(now, now.Add(-300*time.Millisecond))
	m.Sent(now, time.Time{}) // a report: no latency
	m.SendFailed(false)
	m.SendFailed(true)
	m.IMAPUp()
	m.IMAPLost()
	m.Tick(20 * time.Millisecond)
	m.orders.Inc()
	m.steps.Add(2)

	mux := http.NewServeMux()
	m.Register(mux, Health{})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	code, body := get(t, srv, "/metrics")
	require.Equal(t, 200, code)
	for _, want := range []string{
		"orrery_mails_received_total 2\n",
		"orrery_mails_answered_total 1\n",
		`orrery_mails_silenced_total{reason="automatic"} 1` + "\n",
		`orrery_mails_rejected_total{reason="gm_refused"} 1` + "\n",
		"orrery_orders_applied_total 1\n",
		"orrery_steps_resolved_total 2\n",
		"orrery_ack_latency_seconds_count 1\n",
		`orrery_ack_latency_seconds_bucket{le="0.5"} 1` + "\n",
		`orrery_ack_latency_seconds_bucket{le="0.25"} 0` + "\n",
		"orrery_mails_sent_total 2\n",
		`orrery_send_failures_total{kind="temporary"} 1` + "\n",
		`orrery_send_failures_total{kind="permanent"} 1` + "\n",
		"orrery_imap_reconnects_total 1\n",
		"orrery_imap_up 0\n",
		"orrery_tick_duration_seconds_count 1\n",
		"orrery_outbox_depth 4\n",
		"orrery_outbox_oldest_age_seconds 90\n",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		assert.Contains(t, body, want)
	}
	code, body = get(t, srv, "/healthz")
	assert.Equal(t, 200, code)
	assert.Equal(t, "ok\n", body)
}

// Methods on a nil *Daemon do nothing: the mail side calls them with
// metrics off.
func TestNilDaemon(t *testing.T) {
	var m *Daemon
	m.MailReceived()
	m.MailAnswered()
	m.MailSilenced("x")
	m.MailRejected("x")
	m.Sent(time.Now(), time.Now())
	m.SendFailed(true)
	m.IMAPUp()
	m.IMAPLost()
	m.Tick(time.Second)
	assert.NoError(t, m.Hook(nil, nil))
}

// /readyz: ready when the database answers, the SMTP server took a mail
// or answered a probe within the minute, and the IMAP session is up; each
// failure is named. The probe runs only when needed, at most every 10 s.
func TestReadyz(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	m := New(nil)
	m.now = func() time.Time { return now }
	var dbErr, probeErr error
	probes := 0
	mux := http.NewServeMux()
	m.Register(mux, Health{
		DB:        func(context.Context) error { return dbErr },
		ProbeSMTP: func(context.Context) error { probes++; return probeErr },
		ReadsIMAP: true,
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	code, body := get(t, srv, "/readyz")
	assert.Equal(t, 503, code)
	assert.Contains(t, body, "imap: the session is not up")
	assert.NotContains(t, body, "smtp", "the probe answered")
	assert.Equal(t, 1, probes)

	m.IMAPUp()
	code, body = get(t, srv, "/readyz")
	assert.Equal(t, 200, code, body)
	assert.Equal(t, "ready\n", body)
	assert.Equal(t, 1, probes, "probed again within the minute of the last answer")

	// Nothing sent for two minutes, and the server is gone.
	now = now.Add(2 * time.Minute)
	probeErr = errors.New("connection refused")
	code, body = get(t, srv, "/readyz")
	assert.Equal(t, 503, code)
	assert.Contains(t, body, "smtp: not reachable within the last 1m0s: connection refused")
	get(t, srv, "/readyz")
	assert.Equal(t, 2, probes, "probed twice within 10 s")

	// A mail accepted makes it ready again without a probe.
	m.Sent(now, time.Time{})
	code, _ = get(t, srv, "/readyz")
	assert.Equal(t, 200, code)

	dbErr = errors.New("database not open")
	m.IMAPLost()
	code, body = get(t, srv, "/readyz")
	assert.Equal(t, 503, code)
	assert.True(t, strings.Contains(body, "database: database not open") && strings.Contains(body, "imap:"), body)
}

// Package metrics is the daemon's Prometheus metrics and health checks,
// served over HTTP when metrics.listen is set: /metrics (the Prometheus
// text format), /healthz (the process is alive) and /readyz (it can do its
// work: the database is open, the SMTP server was reachable within the last
// minute, the IMAP session is up).
//
// Each daemon has its own registry (New), never the client library's
// global default one, so two daemons in one process (tests, a future host
// of several) never mix their counts. Every method is safe on a nil
// *Daemon, so the mail side calls them whether metrics are on or not.
package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"orrery/engine/game"
	"orrery/engine/store"
)

// Namespace prefixes every metric name.
const Namespace = "orrery"

// OutboxStats reports the outbox's depth and the time its oldest mail was
// queued (zero when empty); it is read at every scrape.
type OutboxStats func() (depth int, oldest time.Time, err error)

// Daemon holds one daemon's metrics and the state its health checks read.
type Daemon struct {
	Registry *prometheus.Registry

	received       prometheus.Counter
	answered       prometheus.Counter
	silenced       *prometheus.CounterVec
	rejected       *prometheus.CounterVec
	orders         prometheus.Counter
	steps          prometheus.Counter
	ackLatency     prometheus.Histogram
	sent           prometheus.Counter
	sendFailures   *prometheus.CounterVec
	imapReconnects prometheus.Counter
	imapUp         prometheus.Gauge
	tick           prometheus.Histogram

	now func() time.Time
	mu  sync.Mutex
	// lastSMTP is the last time the SMTP server took a mail or answered
	// a probe; imap says whether the IMAP session is up.
	lastSMTP time.Time
	imap     bool
}

// New makes a daemon's metrics on a registry of its own, with the Go
// runtime's and the process's collectors, and the outbox read through
// stats at each scrape (nil: no outbox metrics).
func New(stats OutboxStats) *Daemon {
	m := &Daemon{Registry: prometheus.NewRegistry(), now: time.Now}
	f := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	}
	m.received = f("mails_received_total", "Mails read from the inbox and handled (a mail seen before is not counted again).")
	m.answered = f("mails_answered_total", "Mails answered: a reply was queued.")
	m.silenced = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "mails_silenced_total",
		Help: "Mails not answered, by reason: automatic (bounces, autoresponders, lists, our own), unauthenticated (a forged sender), unreadable (no header to answer), rate_limit (the sender's hourly or a stranger's daily allowance)."},
		[]string{"reason"})
	m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "mails_rejected_total",
		Help: "Mails filed under the rejected folder, by reason: automatic, unauthenticated, unreadable, oversize, unparsable (no text could be read), gm_refused (a GM command without the GM's address and secret)."},
		[]string{"reason"})
	m.orders = f("orders_applied_total", "Order submissions accepted and stored (by mail, command line or a bot seat).")
	m.steps = f("steps_resolved_total", "Game steps resolved.")
	m.ackLatency = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "ack_latency_seconds",
		Help:    "From reading a mail to the SMTP server accepting its answer.",
		Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300}})
	m.sent = f("mails_sent_total", "Mails the SMTP server accepted (answers, reports, notices).")
	m.sendFailures = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "send_failures_total",
		Help: "Failed attempts to send a mail: temporary (retried later) or permanent (given up on)."}, []string{"kind"})
	m.imapReconnects = f("imap_reconnects_total", "IMAP sessions lost (the reader reconnects with backoff).")
	m.imapUp = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "imap_up", Help: "1 while the IMAP session is up."})
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "tick_duration_seconds",
		Help: "Time of one tick: deadlines, reminders and late notices of every due game.", Buckets: prometheus.DefBuckets})
	m.Registry.MustRegister(m.received, m.answered, m.silenced, m.rejected, m.orders, m.steps, m.ackLatency, m.sent,
		m.sendFailures, m.imapReconnects, m.imapUp, m.tick,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if stats != nil {
		m.Registry.MustRegister(&outboxCollector{stats: stats, now: func() time.Time { return m.now() }})
	}
	return m
}

// MailReceived counts a mail read and handled.
func (m *Daemon) MailReceived() {
	if m != nil {
		m.received.Inc()
	}
}

// MailAnswered counts a mail whose answer was queued.
func (m *Daemon) MailAnswered() {
	if m != nil {
		m.answered.Inc()
	}
}

// MailSilenced counts a mail left unanswered, for reason.
func (m *Daemon) MailSilenced(reason string) {
	if m != nil {
		m.silenced.WithLabelValues(reason).Inc()
	}
}

// MailRejected counts a mail filed as rejected, for reason.
func (m *Daemon) MailRejected(reason string) {
	if m != nil {
		m.rejected.WithLabelValues(reason).Inc()
	}
}

// Hook is a game.Hook that counts accepted orders and resolved steps once
// their transaction commits.
func (m *Daemon) Hook(tx store.Tx, c *game.Change) error {
	if m == nil {
		return nil
	}
	orders := c.Submit != nil && c.Submit.Accepted
	steps := len(c.Steps)
	tx.OnCommit(func() {
		if orders {
			m.orders.Inc()
		}
		m.steps.Add(float64(steps))
	})
	return nil
}

// Sent records a mail the SMTP server accepted; for an answer to a mail
// (received is set), the ack latency.
func (m *Daemon) Sent(sent, received time.Time) {
	if m == nil {
		return
	}
	m.sent.Inc()
	if !received.IsZero() {
		m.ackLatency.Observe(sent.Sub(received).Seconds())
	}
	m.SMTPReachable(sent)
}

// SendFailed counts a failed attempt; permanent when the mail was given up.
func (m *Daemon) SendFailed(permanent bool) {
	if m == nil {
		return
	}
	kind := "temporary"
	if permanent {
		kind = "permanent"
	}
	m.sendFailures.WithLabelValues(kind).Inc()
}

// SMTPReachable notes that the SMTP server answered at t.
func (m *Daemon) SMTPReachable(t time.Time) {
	if m == nil {
		return
	}
	m.mu.Lock()
	if t.After(m.lastSMTP) {
		m.lastSMTP = t
	}
	m.mu.Unlock()
}

// IMAPUp notes that the IMAP session came up.
func (m *Daemon) IMAPUp() {
	if m == nil {
		return
	}
	m.imapUp.Set(1)
	m.mu.Lock()
	m.imap = true
	m.mu.Unlock()
}

// IMAPLost notes that the IMAP session was lost; the reader reconnects.
func (m *Daemon) IMAPLost() {
	if m == nil {
		return
	}
	m.imapUp.Set(0)
	m.imapReconnects.Inc()
	m.mu.Lock()
	m.imap = false
	m.mu.Unlock()
}

// Tick records the duration of one tick.
func (m *Daemon) Tick(d time.Duration) {
	if m != nil {
		m.tick.Observe(d.Seconds())
	}
}

// outboxCollector reads the outbox's depth and age at each scrape.
type outboxCollector struct {
	stats OutboxStats
	now   func() time.Time
}

var (
	descDepth = prometheus.NewDesc(Namespace+"_outbox_depth", "Mails queued and not yet accepted by the SMTP server.", nil, nil)
	descAge   = prometheus.NewDesc(Namespace+"_outbox_oldest_age_seconds", "Age of the oldest queued mail (0 when the outbox is empty).", nil, nil)
)

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descDepth; ch <- descAge }

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	depth, oldest, err := c.stats()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(descDepth, err)
		return
	}
	age := 0.0
	if !oldest.IsZero() {
		age = max(c.now().Sub(oldest).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(descDepth, prometheus.GaugeValue, float64(depth))
	ch <- prometheus.MustNewConstMetric(descAge, prometheus.GaugeValue, age)
}

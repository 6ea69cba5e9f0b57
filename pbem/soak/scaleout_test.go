//go:build soak

package soak

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"orrery/pbem/pbemtest"
)

var (
	flagScaleOutMails = flag.Int("scale.outmails", 2000, "scale: order mails in each scale-out drain (the scaleout part)")
	flagScaleOutCores = flag.Float64("scale.outcores", 0.2, "scale: the share of a core each daemon of the scale-out drains may use (a cgroup's CPU quota)")
)

// Why the scale-out part exists. A second daemon on another machine brings
// its own CPU; on this one it can only share the two cores the first
// daemon, PostgreSQL and the mail servers already keep busy, and the
// two-daemon backlog row shows it costing, not adding. The scale-out
// drains put each daemon (a process of its own, as orrery serve runs)
// in a cgroup that lets it use only a share of a core, so that the
// daemons, not the machine, are what limits the drain, as they would be
// with a daemon a machine: first one daemon, then two, each held to the
// same share, drain the same number of order mails on fresh copies of
// the same database. Two daemons' pace over one's is what adding a
// daemon adds.

// cpuCap is a cgroup whose processes may use at most a share of one core.
type cpuCap struct{ dir string }

// newCPUCap makes the cgroup name, on cgroup v1's cpu controller or on
// cgroup v2 (the machine's), holding its processes to cores of a core's
// time. It fails where cgroups cannot be written (not root, a container
// without them).
func newCPUCap(name string, cores float64) (*cpuCap, error) {
	const period = 100000 // µs
	quota := fmt.Sprint(int(cores * period))
	if fi, err := os.Stat("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"); err == nil && fi.Mode().IsRegular() {
		dir := filepath.Join("/sys/fs/cgroup/cpu", name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		c := &cpuCap{dir}
		if err := c.write("cpu.cfs_period_us", fmt.Sprint(period)); err != nil {
			c.remove()
			return nil, err
		}
		if err := c.write("cpu.cfs_quota_us", quota); err != nil {
			c.remove()
			return nil, err
		}
		return c, nil
	}
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err != nil {
		return nil, errors.New("neither cgroup v1's cpu controller nor cgroup v2 is mounted at /sys/fs/cgroup")
	}
	// cgroup v2: the cpu controller must be on for the root's children.
	if err := os.WriteFile("/sys/fs/cgroup/cgroup.subtree_control", []byte("+cpu"), 0); err != nil {
		return nil, fmt.Errorf("enable cgroup v2's cpu controller: %w", err)
	}
	dir := filepath.Join("/sys/fs/cgroup", name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	c := &cpuCap{dir}
	if err := c.write("cpu.max", quota+" "+fmt.Sprint(period)); err != nil {
		c.remove()
		return nil, err
	}
	return c, nil
}

func (c *cpuCap) write(file, value string) error {
	return os.WriteFile(filepath.Join(c.dir, file), []byte(value), 0)
}

// throttled is how often the kernel held the group's processes back for
// their quota, and for how long in all (cpu.stat).
func (c *cpuCap) throttled() string {
	data, err := os.ReadFile(filepath.Join(c.dir, "cpu.stat"))
	if err != nil {
		return "?"
	}
	var n, us string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "nr_throttled":
			n = f[1]
		case "throttled_time": // v1, ns
			us = f[1][:max(0, len(f[1])-3)]
		case "throttled_usec": // v2
			us = f[1]
		}
	}
	return n + " times, " + us + " µs"
}

// remove deletes the cgroup once its processes have ended.
func (c *cpuCap) remove() {
	for range 50 {
		if err := os.Remove(c.dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// scaleOutRun is one scale-out drain's outcome.
type scaleOutRun struct {
	took time.Duration
	cpu  []time.Duration // each daemon's
	sent []int64         // mails each daemon's outbox sent
	acks int64
}

// scaleOutDrain delivers m order mails, one seat of each game of f sending
// again and again, to a new mailbox while no daemon runs, then starts
// daemons child daemons on db, each in a cgroup of its own held to cores
// of a core, and times them until every order mail is acknowledged.
func scaleOutDrain(t *testing.T, s stack, db string, f *fleet, m, daemons int, cores float64) scaleOutRun {
	t.Helper()
	ctx := context.Background()
	bot := "orrery-out-" + nonce() + "@" + s.Domain
	// What is due in the games, and their welcome mails, first, by a
	// daemon in this process (as the backlog drain does): the drain
	// times order mails only.
	st, d, r, err := s.newDaemon(db, bot, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Service().Tick(ctx); err != nil {
		t.Fatal(err)
	}
	qctx, qcancel := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() { d.Run(qctx, r); close(ran) }()
	if err := waitOutbox(st, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	qcancel()
	<-ran
	jobs, err := openJobs(ctx, d.Service(), f, rand.New(rand.NewPCG(9, 9)))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	bySeat := map[string]bool{}
	var order []job
	for _, j := range jobs {
		if !bySeat[j.game] {
			bySeat[j.game] = true
			order = append(order, j)
		}
	}
	if len(order) == 0 {
		t.Fatal("no open questions in the fleet")
	}
	n := nonce()
	if err := s.injectMany(bot, m, func(i int) []byte {
		return rawMail(order[i%len(order)].mail(bot, fmt.Sprintf("out-%d-%s@players.example.org", i, n)))
	}); err != nil {
		t.Fatal(err)
	}

	var (
		acks atomic.Int64
		all  = make(chan struct{})
		once sync.Once
		res  = scaleOutRun{cpu: make([]time.Duration, daemons), sent: make([]int64, daemons)}
		cmds []*exec.Cmd
		caps []*cpuCap
		read sync.WaitGroup
	)
	defer func() {
		for _, c := range cmds {
			c.Process.Signal(syscall.SIGKILL)
			c.Wait()
		}
		for _, c := range caps {
			c.remove()
		}
	}()
	for i := range daemons {
		c, err := newCPUCap(fmt.Sprintf("orrery-soak-%s-%d", n, i), cores)
		if err != nil {
			t.Fatal(err)
		}
		caps = append(caps, c)
	}
	s.settle(t) // the run before's mails delivered, not delivered during this one
	t0 := time.Now()
	for i := range daemons {
		env := []string{"ORRERY_SOAK_CHILD=" + bot, "ORRERY_SOAK_CHILD_DB=" + db,
			"ORRERY_SOAK_CHILD_CGROUP=" + caps[i].dir, "ORRERY_SOAK_CHILD_SENT=1"}
		if *flagCPUProfile != "" {
			env = append(env, fmt.Sprintf("ORRERY_SOAK_CHILD_CPUPROFILE=%s.out%d-%d", *flagCPUProfile, daemons, i+1))
		}
		cmd, out := pbemtest.StartChild(t, env...)
		cmds = append(cmds, cmd)
		read.Go(func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				res.sent[i]++
				if sc.Text() == "reply" && acks.Add(1) == int64(m) {
					once.Do(func() { close(all) })
				}
			}
		})
	}
	select {
	case <-all:
	case <-time.After(15 * time.Minute):
		t.Errorf("only %d of %d order mails acknowledged after 15 minutes", acks.Load(), m)
	}
	res.took = time.Since(t0)
	for i, c := range caps {
		t.Logf("scale-out, %d daemon(s): daemon %d held back for its quota %s", daemons, i+1, c.throttled())
	}
	for i, c := range cmds {
		c.Process.Signal(syscall.SIGTERM)
		if err := c.Wait(); err != nil {
			t.Errorf("daemon %d: %v", i+1, err)
		}
		res.cpu[i] = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	read.Wait()
	cmds = nil
	res.acks = acks.Load()
	return res
}

// scaleOut takes the scale-out rows at n games: a drain by one daemon,
// then by two, each held to -scale.outcores of a core, each on a fresh
// copy of the database (fresh returns one).
func scaleOut(t *testing.T, s stack, n int, fresh func() string, tab *scaleTable) {
	cores, m := *flagScaleOutCores, *flagScaleOutMails
	if c, err := newCPUCap("orrery-soak-probe-"+nonce(), cores); err != nil {
		t.Logf("the scale-out rows are skipped: this machine's cgroups cannot hold a daemon to a share of a core (%v); they need root and cgroup v1's cpu controller or cgroup v2", err)
		return
	} else {
		c.remove()
	}
	var runs [2]scaleOutRun
	for i := range runs {
		db := fresh()
		runs[i] = scaleOutDrain(t, s, db, sampleFleet(t, db, n), m, i+1, cores)
		t.Logf("scale-out, %d daemon(s): %d acks in %v; CPU %v; sent %v", i+1, runs[i].acks, runs[i].took, runs[i].cpu, runs[i].sent)
	}
	pace := func(r scaleOutRun) float64 { return float64(r.acks) / r.took.Seconds() }
	cpu := func(r scaleOutRun) string {
		var parts []string
		for _, c := range r.cpu {
			parts = append(parts, fmt.Sprintf("%.1f s", c.Seconds()))
		}
		return strings.Join(parts, " + ")
	}
	one, two := runs[0], runs[1]
	label := fmt.Sprintf("scale-out: drain of %d order mails, each daemon a process held to %.2g of a core (cgroup), as if on a machine of its own", m, cores)
	tab.set(label+", one daemon: time, pace (its CPU) — PostgreSQL", n,
		fmt.Sprintf("%v, %.1f mails/s (CPU %s)", one.took.Round(time.Millisecond), pace(one), cpu(one)))
	tab.set(label+", two daemons: time, pace (their CPU; mails each sent) — PostgreSQL", n,
		fmt.Sprintf("%v, %.1f mails/s (CPU %s; %d / %d)", two.took.Round(time.Millisecond), pace(two), cpu(two), two.sent[0], two.sent[1]))
	x := pace(two) / pace(one)
	v := fmt.Sprintf("%.2f×", x)
	if x <= 1 {
		v += " (**missed** > 1×)"
	}
	tab.set("scale-out: two daemons' pace as a multiple of one's (adding a daemon adds throughput) — PostgreSQL", n, v)
}

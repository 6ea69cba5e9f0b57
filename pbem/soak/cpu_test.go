//go:build soak

package soak

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuSample is where the machine's CPU time had gone at one moment: every
// core's busy and idle time (/proc/stat), this process's (the daemons
// under test, or the raw limit's client), and each PostgreSQL process's.
// A backlog drain shares two cores with the mail servers and PostgreSQL,
// and the load average says little about who used them (the servers'
// short-lived processes alone raise it past 20): the difference of two
// samples says how busy the machine was and who had its time.
type cpuSample struct {
	busy, idle float64         // seconds, summed over the cores
	self       float64         // seconds
	pg         map[int]float64 // pid → seconds, processes named postgres
	// procs is every process's CPU (its own and its reaped children's),
	// with the group it belongs to: dovecot, postfix, postgres, kernel
	// threads, this process, or other.
	procs map[int]procCPU
}

type procCPU struct {
	group string
	secs  float64
}

// groupOf names the group of the process whose executable is exe (empty
// for a kernel thread) and whose parent is ppid.
func groupOf(pid int, exe string, ppid int) string {
	switch {
	case pid == os.Getpid():
		return "this process"
	case exe == "" && (ppid == 2 || pid == 2):
		return "kernel threads"
	case strings.Contains(exe, "dovecot"):
		return "Dovecot " + filepath.Base(exe)
	case strings.Contains(exe, "postfix"):
		return "Postfix " + filepath.Base(exe)
	case strings.Contains(exe, "postgres"):
		return "PostgreSQL"
	}
	return "other processes"
}

// clockTick is USER_HZ, the unit of /proc's CPU times: 100 on Linux
// whatever the kernel's own tick.
const clockTick = 100.0

func sampleCPU() cpuSample {
	var s cpuSample
	if data, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(data), "\n")
		if f := strings.Fields(line); len(f) > 5 && f[0] == "cpu" {
			for i, v := range f[1:] {
				n, _ := strconv.ParseFloat(v, 64)
				switch i {
				case 3, 4: // idle, iowait
					s.idle += n / clockTick
				case 7, 8, 9: // steal: not this machine's to use; guest: counted in user already
				default:
					s.busy += n / clockTick
				}
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	s.pg = map[int]float64{}
	s.procs = map[int]procCPU{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at
		// the last parenthesis.
		text := string(data)
		open, end := strings.IndexByte(text, '('), strings.LastIndexByte(text, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(text[end+1:])
		if len(f) < 15 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(text[:open]))
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseFloat(f[11], 64)
		st, _ := strconv.ParseFloat(f[12], 64)
		cut, _ := strconv.ParseFloat(f[13], 64)
		cst, _ := strconv.ParseFloat(f[14], 64)
		exe, _ := os.Readlink(filepath.Join(filepath.Dir(p), "exe"))
		s.procs[pid] = procCPU{groupOf(pid, exe, ppid), (ut + st + cut + cst) / clockTick}
		if text[open+1:end] == "postgres" {
			s.pg[pid] = (ut + st) / clockTick
		}
	}
	return s
}

// byGroup says how the busy time between a and b split among the groups
// of processes (a process started meanwhile counts whole; one that ended
// counts in its parent, which reaped it), the largest first, and what no
// process had (interrupts, and what the kernel did for no one process).
func byGroup(a, b cpuSample) string {
	sum := map[string]float64{}
	total := 0.0
	for pid, p := range b.procs {
		d := p.secs
		if q, ok := a.procs[pid]; ok {
			d -= q.secs
		}
		if d > 0 {
			sum[p.group] += d
			total += d
		}
	}
	names := make([]string, 0, len(sum))
	for n := range sum {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return sum[names[i]] > sum[names[j]] })
	var parts []string
	for _, n := range names {
		if sum[n] >= 0.5 {
			parts = append(parts, fmt.Sprintf("%s %.0f s", n, sum[n]))
		}
	}
	parts = append(parts, fmt.Sprintf("in no process %.0f s", max(0, (b.busy-a.busy)-total)))
	return strings.Join(parts, ", ")
}

// cpuSince says where the CPU went between a and b: how busy the cores
// were, and the shares of this process, of PostgreSQL (the processes
// alive at b; one started meanwhile counts whole) and of the rest (the
// mail servers, the kernel's own work, anything else running).
func cpuSince(a, b cpuSample, wall time.Duration) string {
	busy, idle := b.busy-a.busy, b.idle-a.idle
	if busy+idle <= 0 {
		return "not measured (no /proc/stat)"
	}
	self := b.self - a.self
	pg := 0.0
	for pid, t := range b.pg {
		pg += t - a.pg[pid]
	}
	cores := (busy + idle) / wall.Seconds()
	out := fmt.Sprintf("%.0f%% busy (%.0f of %.0f core-seconds): this process %.0f s", 100*busy/(busy+idle), busy, busy+idle, self)
	if len(b.pg) > 0 {
		out += fmt.Sprintf(", PostgreSQL %.0f s", pg)
	}
	return out + fmt.Sprintf(", the rest (the mail servers, the kernel) %.0f s; %.1f cores", busy-self-pg, cores)
}

// TestCPUSince: the shares add up to the busy time, PostgreSQL's counts
// only its processes' growth (a new one whole), and a live sample of this
// machine reads something.
func TestCPUSince(t *testing.T) {
	a := cpuSample{busy: 100, idle: 50, self: 10, pg: map[int]float64{7: 5, 8: 1}}
	b := cpuSample{busy: 280, idle: 70, self: 70, pg: map[int]float64{7: 45, 9: 20}}
	got := cpuSince(a, b, 100*time.Second)
	want := "90% busy (180 of 200 core-seconds): this process 60 s, PostgreSQL 60 s, the rest (the mail servers, the kernel) 60 s; 2.0 cores"
	if got != want {
		t.Errorf("cpuSince =\n%s\nwant\n%s", got, want)
	}
	a = cpuSample{busy: 100, procs: map[int]procCPU{1: {"Dovecot imap", 5}, 2: {"Postfix smtpd", 1}}}
	b = cpuSample{busy: 130, procs: map[int]procCPU{1: {"Dovecot imap", 15}, 3: {"Postfix smtpd", 4}}}
	if got, want := byGroup(a, b), "Dovecot imap 10 s, Postfix smtpd 4 s, in no process 16 s"; got != want {
		t.Errorf("byGroup = %q, want %q", got, want)
	}
	s := sampleCPU()
	if s.procs[os.Getpid()].group != "this process" {
		t.Errorf("this process is not found among the processes: %+v", s.procs[os.Getpid()])
	}
	if s.busy+s.idle <= 0 || s.self <= 0 {
		t.Errorf("sampleCPU read nothing: %+v", s)
	}
}

package binarytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// BenchmarkFirstSync: a first `unibox sync` of an INBOX of N messages on
// a private Dovecot, by the real binary as a process of its own: how long
// it takes, and the peak RSS (VmHWM) of the unibox process and of its
// serve-imap child (goal: unibox ≤ 80 MB, and neither growing with the
// folder beyond a fixed budget). With UNIBOX_BENCH_FULL=1, 10,000 and
// 100,000 messages, in one run so that the note can quote the 100k/10k
// ratio of each peak; 1,000 in the smoke run. Without Dovecot it skips
// (fails under CI), as imaptest.StartDovecot does.
//
// Each sync starts from nothing: new XDG_CACHE_HOME and XDG_STATE_HOME
// (a new store), the same mailbox. It must end with exit 0 and stored ==
// total == N.
//
// The messages are written straight into the Maildir
// (PrivateDovecot.Deliver). Dovecot's first look at them is a SELECT
// (scan the directory, assign uids, build the index), timed apart as
// s-dovecot-select; it is cheap. What costs is a sync while Dovecot has
// not cached the envelopes (dovecot.index.cache): every page has it open
// all 200 files, and after each of unibox's per-page SELECTs the first
// open misses (dovecot-uidlist keeps the name without ":2,") and Dovecot
// rescans cur/, a cost per page that grows with the folder. Dovecot
// caches a field for good only when a second session asks for it, so
// before the timing two sessions of our own each FETCH 1:* the items a
// sync page asks for (s-dovecot-warm, both together), and s/sync
// measures unibox against a Dovecot that serves them from its cache, as
// a server whose clients have long read the mailbox does. With
// UNIBOX_BENCH_COLD=1 a first, untimed sync runs before that warm-up:
// s-sync-cold, a first sync against a server that never served these
// envelopes (about three times s/sync for 100,000 messages here).
//
// Measured per sync:
//   - s/sync: wall time from starting the process to its exit, and
//     msgs/s = N / s/sync;
//   - MB-hwm-unibox: ru_maxrss of the unibox process from wait4
//     (ProcessState.SysUsage, kB on Linux). The kernel reports the
//     larger of the process's own peak and that of its descendants it
//     reaped, so it is the unibox process's own peak only while it is
//     above MB-hwm-child; MB-hwm-unibox-own is VmHWM from
//     /proc/<pid>/status, sampled (below), which says which it was;
//   - MB-hwm-child: the serve-imap child's VmHWM. The child is found in
//     /proc/<unibox>/task/*/children (any thread may have forked it) and
//     its /proc/<child>/status is read every 10 ms until the unibox
//     process ends; the last value read is kept (max over serve-imap
//     children, of which one account has one). VmHWM is the kernel's own
//     high-water mark, so sampling misses no peak: only growth in the
//     last 10 ms before the child exits could go unseen;
//   - cpu-s: user + system time of unibox and its reaped serve-imap
//     child (not Dovecot's), from the same rusage; cpu-s-child, the
//     child's part, from its /proc/<child>/stat as sampled (up to 10 ms
//     short). What wall time the two do not account for is mostly
//     Dovecot's (the three take turns more than they overlap).
//
// The MB figures are the largest of every sync of the size, a cold one
// included.
func BenchmarkFirstSync(b *testing.B) {
	sizes := []int{1000}
	if os.Getenv("UNIBOX_BENCH_FULL") == "1" {
		sizes = []int{10000, 100000}
	}
	cold := os.Getenv("UNIBOX_BENCH_COLD") == "1"
	d := imaptest.StartDovecot(b) // skips without Dovecot, before the build
	bin := buildUnibox(b)
	// One user of .ci/dovecot.sh's per size, each mailbox filled once.
	users := []string{"alice", "bob", "carol", "dave"}
	type setup struct {
		config string
		cold   syncRun
		took   map[string]float64
	}
	done := map[int]*setup{}
	for i, n := range sizes {
		user := users[i]
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			su := done[n]
			if su == nil {
				su = &setup{took: fillInbox(b, d, user, n)}
				su.config = filepath.Join(b.TempDir(), "config.toml")
				cfg := fmt.Sprintf("[[account]]\nname = \"Dovecot\"\nhost = \"127.0.0.1\"\nport = %d\nsecurity = \"none\"\nusername = %q\npassword_env = \"UNIBOX_BENCH_PW\"\n",
					portOf(b, d.DirectAddr()), user)
				if err := os.WriteFile(su.config, []byte(cfg), 0o600); err != nil {
					b.Fatal(err)
				}
				if cold {
					su.cold = firstSync(b, bin, su.config, user+"-pw", n)
					su.took["s-sync-cold"] = su.cold.wall.Seconds()
				}
				su.took["s-dovecot-warm"] = warmDovecot(b, d, user, n)
				done[n] = su
			}
			sum := syncRun{maxrss: su.cold.maxrss, own: su.cold.own, child: su.cold.child}
			iters := 0
			for b.Loop() {
				r := firstSync(b, bin, su.config, user+"-pw", n)
				sum.wall += r.wall
				sum.cpu += r.cpu
				sum.childCPU += r.childCPU
				sum.maxrss = max(sum.maxrss, r.maxrss)
				sum.own = max(sum.own, r.own)
				sum.child = max(sum.child, r.child)
				iters++
			}
			s := sum.wall.Seconds() / float64(iters)
			b.ReportMetric(s, "s/sync")
			b.ReportMetric(float64(n)/s, "msgs/s")
			b.ReportMetric(sum.cpu.Seconds()/float64(iters), "cpu-s")
			b.ReportMetric(sum.childCPU.Seconds()/float64(iters), "cpu-s-child")
			b.ReportMetric(float64(sum.maxrss)/1024, "MB-hwm-unibox")
			b.ReportMetric(float64(sum.own)/1024, "MB-hwm-unibox-own")
			b.ReportMetric(float64(sum.child)/1024, "MB-hwm-child")
			for unit, v := range su.took { // after the loop: b.Loop's reset clears metrics
				b.ReportMetric(v, unit)
			}
		})
	}
}

// fillInbox has Dovecot make user's Maildir, writes n messages into it
// and has Dovecot index them (a SELECT), which it times.
func fillInbox(b *testing.B, d *imaptest.PrivateDovecot, user string, n int) map[string]float64 {
	b.Helper()
	// Dovecot makes the Maildir at the first SELECT, not at login: made
	// by Deliver instead, it would be root's.
	c := d.Client(b, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		b.Fatal(err)
	}
	c.Close()
	base := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)
	body := strings.Repeat("The figures for the quarter are in the attached plan; see the notes below.\n", 20)
	d.Deliver(b, user, n, func(i int) []byte {
		m := imaptest.Mail{
			From:      fmt.Sprintf("Sender %d <sender%d@example.org>", i%97, i%97),
			To:        user + " <" + user + "@example.com>",
			Subject:   fmt.Sprintf("message %06d about the quarterly plan", i),
			Date:      base.Add(time.Duration(i) * time.Minute),
			MessageID: fmt.Sprintf("%d.bench@unibox.test", i),
			Body:      body,
		}
		if i%10 == 0 {
			m.HTML = "<p>" + body + "</p>"
		}
		return m.Bytes()
	})
	c = d.Client(b, user)
	defer c.Close()
	start := time.Now()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		b.Fatal(err)
	}
	if sel.NumMessages != uint32(n) {
		b.Fatalf("dovecot sees %d messages, delivered %d", sel.NumMessages, n)
	}
	return map[string]float64{"s-dovecot-select": time.Since(start).Seconds()}
}

// warmDovecot has Dovecot cache what a sync page asks for (two sessions,
// see BenchmarkFirstSync) and says how long it took, in seconds.
func warmDovecot(b *testing.B, d *imaptest.PrivateDovecot, user string, n int) float64 {
	b.Helper()
	start := time.Now()
	for range 2 {
		c := d.Client(b, user)
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			b.Fatal(err)
		}
		all := imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}
		cmd := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true, Envelope: true, InternalDate: true, RFC822Size: true,
			BodyStructure: &imap.FetchItemBodyStructure{Extended: true}})
		got := 0
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			if _, err := msg.Collect(); err != nil {
				b.Fatal(err)
			}
			got++
		}
		if err := cmd.Close(); err != nil || got != n {
			b.Fatalf("warm-up fetch: %d of %d, %v", got, n, err)
		}
		c.Close()
	}
	return time.Since(start).Seconds()
}

// syncRun is one first sync's figures (RSS in kB).
type syncRun struct {
	wall, cpu, childCPU time.Duration
	maxrss, own, child  int
}

// firstSync runs `unibox sync --json` on a new store and checks that it
// brought all n messages.
func firstSync(b *testing.B, bin, config, pw string, n int) syncRun {
	b.Helper()
	dir := b.TempDir()
	cmd := exec.Command(bin, "sync", "--json", "--config", config, "--timeout", "60s")
	cmd.Env = []string{"UNIBOX_BENCH_PW=" + pw, "HOME=" + dir, "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop, got := make(chan struct{}), make(chan sampled)
	go func() { got <- sample(cmd.Process.Pid, stop) }()
	err := cmd.Wait()
	wall := time.Since(start)
	close(stop)
	seen := <-got
	var out struct{ Accounts []cli.SyncJSON }
	if jerr := json.Unmarshal(stdout.Bytes(), &out); err != nil || jerr != nil || cmd.ProcessState.ExitCode() != launch.ExitOK ||
		len(out.Accounts) != 1 || out.Accounts[0].Stored != uint32(n) || out.Accounts[0].Total != uint32(n) || out.Accounts[0].Error != "" {
		b.Fatalf("unibox sync of %d messages: %v, %v\n%s\n%s", n, err, jerr, stdout.String(), stderr.String())
	}
	if seen.child == 0 {
		b.Fatal("no serve-imap child seen while unibox synced")
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return syncRun{wall: wall, cpu: cpu, childCPU: seen.childCPU, maxrss: int(ru.Maxrss), own: seen.own, child: seen.child}
}

// sampled is what sample read last of a sync's processes.
type sampled struct {
	own, child int           // VmHWM, kB: unibox's, the largest serve-imap child's
	childCPU   time.Duration // user + system time of the serve-imap children
}

// sample reads every 10 ms, until stop, the VmHWM of pid and the VmHWM
// and CPU time of its serve-imap children, keeping the last value read
// of each process.
func sample(pid int, stop <-chan struct{}) sampled {
	type kid struct {
		hwm int
		cpu time.Duration
	}
	var out sampled
	kids := map[int]kid{}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if v := vmHWM(pid); v > 0 {
			out.own = v
		}
		for _, k := range childrenOf(pid) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", k))
			if !bytes.Contains(cmdline, []byte("serve-imap")) {
				continue
			}
			if v := vmHWM(k); v > 0 {
				kids[k] = kid{hwm: v, cpu: cpuTime(k)}
			}
		}
		select {
		case <-stop:
			for _, k := range kids {
				out.child = max(out.child, k.hwm)
				out.childCPU += k.cpu
			}
			return out
		case <-tick.C:
		}
	}
}

// cpuTime is a process's user + system time so far (/proc/<pid>/stat,
// in clock ticks of 1/100 s, USER_HZ on Linux).
func cpuTime(pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses;
	// utime and stime are the 14th and 15th fields.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	var utime, stime int64
	fmt.Sscanf(f[11], "%d", &utime)
	fmt.Sscanf(f[12], "%d", &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// vmHWM is a process's peak resident set size in kB (0: gone).
func vmHWM(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		var kb int
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
			return kb
		}
	}
	return 0
}

func portOf(b *testing.B, addr string) int {
	_, p, ok := strings.Cut(addr, ":")
	var n int
	if _, err := fmt.Sscanf(p, "%d", &n); !ok || err != nil {
		b.Fatalf("no port in %q", addr)
	}
	return n
}

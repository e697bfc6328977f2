package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// terminal is one tmux server of the harness's own (its own socket), so
// the person's tmux is never touched and every program meets the same
// terminal: one that answers its queries, as a person's does.
type terminal struct {
	socket string
	width  int
	height int
}

func newTerminal(width, height int) (*terminal, error) {
	t := &terminal{socket: fmt.Sprintf("unibench-%d", os.Getpid()), width: width, height: height}
	// The server starts with a session that idles, so no timed session
	// pays for the server's own start. (A control client that sets no
	// size leaves a window's size alone; with window-size manual set,
	// tmux 3.3a's server exits at the next new-session.)
	if err := t.tmux("new-session", "-d", "-s", "idle", "-x", "80", "-y", "24", "sleep", "100000"); err != nil {
		return nil, fmt.Errorf("start tmux: %w", err)
	}
	return t, nil
}

func (t *terminal) tmux(args ...string) error {
	out, err := exec.Command("tmux", append([]string{"-L", t.socket}, args...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func (t *terminal) output(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", t.socket}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

func (t *terminal) close() { _ = t.tmux("kill-server") }

// pane is one program running in a session of its own, watched through a
// tmux control client: every byte the program writes reaches the harness
// as tmux receives it (%output), so a figure is the moment text reached
// the terminal, with no polling between (a poll would take the cores the
// programs measured need, and add its own period).
type pane struct {
	t     *terminal
	name  string
	pid   int
	start time.Time
	ctl   *exec.Cmd
	ctlIn io.WriteCloser

	mu    sync.Mutex
	text  strings.Builder // the output, escape sequences stripped
	seen  chan struct{}   // closed and renewed at every output
	ended bool
}

// run starts argv in a new session with exactly env (env -i: nothing of
// the harness's own environment reaches the program). The program is
// held (its shell waits on a FIFO) until the control client is attached;
// start is the moment it is let go, the origin of every figure taken on
// it. (Held with SIGSTOP instead, tmux 3.3a's server exits.)
func (t *terminal) run(name string, env []string, argv ...string) (*pane, error) {
	dir, err := os.MkdirTemp("", "unibench-go-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fifo := filepath.Join(dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, err
	}
	cmd := []string{"sh", "-c", `read _ < "$0"; exec "$@"`, fifo, "env", "-i"}
	cmd = append(cmd, env...)
	cmd = append(cmd, argv...)
	args := []string{"new-session", "-d", "-s", name, "-x", strconv.Itoa(t.width), "-y", strconv.Itoa(t.height), "--"}
	if err := t.tmux(append(args, cmd...)...); err != nil {
		return nil, err
	}
	out, err := t.output("display-message", "-p", "-t", name, "#{pane_pid}")
	if err != nil {
		return nil, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return nil, fmt.Errorf("pane pid %q: %w", out, err)
	}
	p := &pane{t: t, name: name, pid: pid, seen: make(chan struct{})}
	if err := p.attach(); err != nil {
		return nil, err
	}
	// Opening for writing waits until the shell has it open for reading.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("let %s go: %w", name, err)
	}
	p.start = time.Now()
	_, err = w.Write([]byte("\n"))
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("let %s go: %w", name, err)
	}
	return p, nil
}

// attach starts the control client and waits until it answers.
func (p *pane) attach() error {
	p.ctl = exec.Command("tmux", "-L", p.t.socket, "-C", "attach", "-t", p.name)
	in, err := p.ctl.StdinPipe()
	if err != nil {
		return err
	}
	out, err := p.ctl.StdoutPipe()
	if err != nil {
		return err
	}
	p.ctlIn = in
	if err := p.ctl.Start(); err != nil {
		return fmt.Errorf("tmux control client: %w", err)
	}
	ready := make(chan struct{})
	go p.read(out, ready)
	select {
	case <-ready:
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("%s: the control client never answered", p.name)
	}
}

// read takes the control client's lines: the first %end says it is
// attached; every %output of the pane is added to the text.
func (p *pane) read(r io.Reader, ready chan struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var strip stripper
	once := sync.Once{}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "%end") || strings.HasPrefix(line, "%session-changed"):
			once.Do(func() { close(ready) })
		case strings.HasPrefix(line, "%output "):
			rest := strings.TrimPrefix(line, "%output ")
			if i := strings.IndexByte(rest, ' '); i >= 0 {
				s := strip.feed(unescape(rest[i+1:]))
				p.mu.Lock()
				p.text.WriteString(s)
				close(p.seen)
				p.seen = make(chan struct{})
				p.mu.Unlock()
			}
		}
	}
	p.mu.Lock()
	p.ended = true
	close(p.seen)
	p.mu.Unlock()
}

// waitFor waits until ok holds of the output so far and returns how
// long after the start the output that made it hold arrived.
func (p *pane) waitFor(what string, limit time.Duration, ok func(string) bool) (time.Duration, error) {
	deadline := time.NewTimer(time.Until(p.start.Add(limit)))
	defer deadline.Stop()
	for {
		p.mu.Lock()
		text, seen, ended := p.text.String(), p.seen, p.ended
		p.mu.Unlock()
		if ok(text) {
			return time.Since(p.start), nil
		}
		if ended {
			return 0, fmt.Errorf("%s: the terminal went away before %s", p.name, what)
		}
		select {
		case <-seen:
		case <-deadline.C:
			s, _ := p.screen()
			return 0, fmt.Errorf("%s: no %s within %s; the screen:\n%s", p.name, what, limit, s)
		}
	}
}

func (p *pane) screen() (string, error) { return p.t.output("capture-pane", "-p", "-t", p.name) }

func (p *pane) keys(keys ...string) error {
	return p.t.tmux(append([]string{"send-keys", "-t", p.name}, keys...)...)
}

// stop ends the session (its program gets SIGHUP, as when a terminal
// window closes) and waits until the program and its children are gone,
// so that no run overlaps the next.
func (p *pane) stop() {
	tree := processTree(p.pid)
	_ = p.t.tmux("kill-session", "-t", p.name)
	if p.ctlIn != nil {
		p.ctlIn.Close()
		_ = p.ctl.Wait()
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range tree {
		for alive(pid) {
			if time.Now().After(deadline) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func contains(words ...string) func(string) bool {
	return func(s string) bool {
		for _, w := range words {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}
}

func containsAny(words ...string) func(string) bool {
	return func(s string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
}

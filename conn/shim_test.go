package conn

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An in-process stdio fault shim between the adapter and a real provider
// child (the re-executed test binary):
//
//	adapter ─ SDK ioConn ─► shimWriter ─► up pipe ─► forwarder ─► child stdin
//	adapter ◄ SDK ioConn ◄─ shimReader ◄─ lines ◄─ pump ◄─────── child stdout
//
// Every hop is a real pipe or a goroutine the shim owns, so a fault is a real
// one: closing the up pipe gives the SDK a kernel EPIPE on its next write; a
// kept copy of the child's stdout write end means the child's death gives no
// EOF, exactly like a grandchild holding the pipe. The transport is an
// mcp.IOTransport that also implements Killer, so the health probe can
// SIGKILL a wedged child, and its Close terminates (stdin close, then SIGTERM,
// then SIGKILL, each after TerminateAfter) and reaps the child, as
// mcp.CommandTransport does.

// shimFaults configure a child at spawn. The switches marked "live" can also
// be flipped on the running shim.
type shimFaults struct {
	ReadDelay  time.Duration // live: every line from the child is delivered this long after it arrived (a slow child)
	Chunk      int           // live: traffic in both directions is cut into chunks of at most Chunk bytes
	ChunkDelay time.Duration // live: pause between two chunks
	// KeepStdout keeps the shim's copy of the child's stdout write end open
	// until Close: the child's death gives no EOF (a grandchild holding it).
	KeepStdout bool
	// Hold holds the child's exit until shimWorld.release: the child is not
	// reaped, its stdout stays open and Close waits. Implies KeepStdout.
	Hold bool
}

type shimLine struct {
	data []byte
	at   time.Time // when the shim read it from the child
	err  error     // after data: the child's stdout ended
}

type shim struct {
	n         int // dial number, from 1
	cmd       *exec.Cmd
	pid       int
	started   time.Time
	terminate time.Duration

	upR, upW   *os.File // requests: the SDK writes upW, the forwarder reads upR
	inW        *os.File // the child's stdin
	outR, outW *os.File // the child's stdout; outW is kept only with KeepStdout/Hold

	lines     chan shimLine
	closed    chan struct{} // Close has begun
	hold      chan struct{} // nil unless Hold
	holdOnce  sync.Once
	reaped    chan struct{}
	closeOnce sync.Once
	closeDone chan struct{}
	wg        sync.WaitGroup // pump, forwarder, reaper

	delay      atomic.Int64
	chunk      atomic.Int64
	chunkDelay atomic.Int64
	garbageOn  atomic.Pointer[string]
	cutOn      atomic.Pointer[string]

	mu      sync.Mutex
	eof     time.Time // the child's stdout ended: it exited (unless KeepStdout/Hold keep it open)
	exited  time.Time // reaped
	exitErr error
	killed  time.Time // Kill was called
	cut     time.Time // the cut-off fault fired
}

// shimGarbage is what the garbage fault puts on the child's stdout.
const shimGarbage = "}{ not json \x00\x1b[31m\n"

// toolResult matches a tools/call response line (and no handshake or ping
// answer), so a fault aimed at it is not taken by a health probe.
const toolResult = `"content":`

func startShim(exe string, env []string, stderr string, n int, f shimFaults, terminate time.Duration) (*shim, error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (*os.File, *os.File, error) {
		r, w, err := os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	upR, upW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	errf, err := os.OpenFile(stderr, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		closeAll()
		return nil, err
	}
	defer errf.Close()

	cmd := exec.Command(exe)
	cmd.Env = env // explicit and minimal, never the parent's
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errf
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	s := &shim{
		n: n, cmd: cmd, pid: cmd.Process.Pid, started: time.Now(), terminate: terminate,
		upR: upR, upW: upW, inW: inW, outR: outR,
		lines: make(chan shimLine, 256), closed: make(chan struct{}), reaped: make(chan struct{}),
		closeDone: make(chan struct{}),
	}
	inR.Close() // the child's ends stay with the child only
	if f.KeepStdout || f.Hold {
		s.outW = outW
	} else {
		outW.Close()
	}
	if f.Hold {
		s.hold = make(chan struct{})
	}
	s.SetReadDelay(f.ReadDelay)
	s.SetChunks(f.Chunk, f.ChunkDelay)
	s.wg.Add(3)
	go s.reap()
	go s.pump()
	go s.forward()
	return s, nil
}

// reap waits for the child (after a Hold is released) and records its exit.
func (s *shim) reap() {
	defer s.wg.Done()
	if s.hold != nil {
		<-s.hold
	}
	err := s.cmd.Wait()
	s.mu.Lock()
	s.exited, s.exitErr = time.Now(), err
	s.mu.Unlock()
	close(s.reaped)
}

// pump reads the child's stdout line by line, stamping each line.
func (s *shim) pump() {
	defer s.wg.Done()
	br := bufio.NewReaderSize(s.outR, 64<<10)
	for {
		data, err := br.ReadBytes('\n')
		at := time.Now()
		if err != nil {
			// Stamped before the SDK can see the end, so before anything
			// the adapter does about it.
			s.mu.Lock()
			s.eof = at
			s.mu.Unlock()
		}
		select {
		case s.lines <- shimLine{data: data, at: at, err: err}:
		case <-s.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// forward copies our requests to the child's stdin, chunked when asked. A
// dead child's EPIPE closes the up pipe, so the SDK's next write gets EPIPE.
func (s *shim) forward() {
	defer s.wg.Done()
	defer s.inW.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := s.upR.Read(buf)
		data := buf[:n]
		for len(data) > 0 {
			m := len(data)
			c, cd := int(s.chunk.Load()), time.Duration(s.chunkDelay.Load())
			if c > 0 && m > c {
				m = c
			}
			if _, werr := s.inW.Write(data[:m]); werr != nil {
				s.upR.Close()
				return
			}
			data = data[m:]
			if len(data) > 0 && c > 0 && !s.pause(cd) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// pause waits d unless the shim closes first.
func (s *shim) pause(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closed:
		return false
	}
}

// due waits until a line that arrived at at is due under the current read
// delay; the delay is re-read, so switching it off takes effect at once.
func (s *shim) due(at time.Time) bool {
	for {
		left := time.Until(at.Add(time.Duration(s.delay.Load())))
		if left <= 0 {
			return true
		}
		if !s.pause(min(left, 10*time.Millisecond)) {
			return false
		}
	}
}

// SetReadDelay makes the child slow (live).
func (s *shim) SetReadDelay(d time.Duration) { s.delay.Store(int64(d)) }

// SetChunks splits traffic into tiny chunks with pauses (live).
func (s *shim) SetChunks(n int, pause time.Duration) {
	s.chunk.Store(int64(n))
	s.chunkDelay.Store(int64(pause))
}

// GarbageBefore puts garbage on the child's stdout just before the next line
// containing match.
func (s *shim) GarbageBefore(match string) { s.garbageOn.Store(&match) }

// InjectGarbage puts garbage on the child's stdout now, unsolicited.
func (s *shim) InjectGarbage() {
	select {
	case s.lines <- shimLine{data: []byte(shimGarbage), at: time.Now()}:
	case <-s.closed:
	}
}

// CutOn cuts the next line containing match in half, then closes the pipe:
// the SDK reads a partial message and EOF, the child sees its stdin close.
func (s *shim) CutOn(match string) { s.cutOn.Store(&match) }

// CloseChildStdin closes the child's stdin from the middle: the child sees
// EOF (and exits), our next write gets EPIPE.
func (s *shim) CloseChildStdin() { s.upR.Close() }

// Kill is the Killer side: SIGKILL, as the health probe does to a wedged child.
func (s *shim) Kill() {
	s.mu.Lock()
	s.killed = time.Now()
	s.mu.Unlock()
	_ = s.cmd.Process.Kill()
}

func (s *shim) waitReaped(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.reaped:
		return true
	case <-t.C:
		return false
	}
}

// Close terminates and reaps the child the way mcp.CommandTransport does:
// stdin close, TerminateAfter, SIGTERM, TerminateAfter, SIGKILL. A held
// child's Close waits for the release first.
func (s *shim) Close() error {
	s.closeOnce.Do(func() {
		if s.hold != nil {
			<-s.hold
		}
		close(s.closed)
		s.upW.Close() // stdin close, through the forwarder
		if !s.waitReaped(s.terminate) {
			_ = s.cmd.Process.Signal(syscall.SIGTERM)
			if !s.waitReaped(s.terminate) {
				_ = s.cmd.Process.Kill()
				<-s.reaped
			}
		}
		s.outR.Close()
		if s.outW != nil {
			s.outW.Close()
		}
		s.upR.Close()
		s.wg.Wait()
		close(s.closeDone)
	})
	return nil
}

func (s *shim) release() {
	if s.hold != nil {
		s.holdOnce.Do(func() { close(s.hold) })
	}
}

// stdoutEnd is when the shim read the end of the child's stdout (zero
// before).
func (s *shim) stdoutEnd() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eof
}

func (s *shim) exitTime() (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exited, s.exitErr
}

// shimReader is what the SDK reads: the child's lines, after the faults.
// Only the SDK's read goroutine calls Read.
type shimReader struct {
	s       *shim
	pending []byte
	err     error
}

func (r *shimReader) Read(p []byte) (int, error) {
	s := r.s
	if len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		var ln shimLine
		select {
		case ln = <-s.lines:
		case <-s.closed:
			return 0, os.ErrClosed
		}
		if !s.due(ln.at) {
			return 0, os.ErrClosed
		}
		data, err := ln.data, ln.err
		if m := s.garbageOn.Load(); m != nil && bytes.Contains(data, []byte(*m)) && s.garbageOn.CompareAndSwap(m, nil) {
			data = append([]byte(shimGarbage), data...)
		}
		if m := s.cutOn.Load(); m != nil && bytes.Contains(data, []byte(*m)) && s.cutOn.CompareAndSwap(m, nil) {
			data, err = data[:len(data)/2], io.EOF
			s.mu.Lock()
			s.cut = time.Now()
			s.mu.Unlock()
			s.upR.Close() // and the pipe closes: the child's stdin ends too
		}
		r.pending, r.err = data, err
		if len(data) == 0 {
			return 0, err
		}
	} else if c := s.chunk.Load(); c > 0 && !s.pause(time.Duration(s.chunkDelay.Load())) {
		return 0, os.ErrClosed
	}
	n := len(r.pending)
	if c := int(s.chunk.Load()); c > 0 && n > c {
		n = c
	}
	n = copy(p, r.pending[:n])
	r.pending = r.pending[n:]
	return n, nil
}

func (r *shimReader) Close() error { return r.s.Close() }

type shimWriter struct{ s *shim }

func (w shimWriter) Write(p []byte) (int, error) { return w.s.upW.Write(p) }
func (w shimWriter) Close() error                { return w.s.Close() }

// shimTransport is an mcp.IOTransport over the shim that can kill its child.
type shimTransport struct {
	mcp.IOTransport
	s *shim
}

func (t *shimTransport) Kill() { t.s.Kill() }

var (
	_ Killer        = (*shimTransport)(nil)
	_ mcp.Transport = (*shimTransport)(nil)
)

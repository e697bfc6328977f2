// Package imaptest runs real IMAP servers for tests: go-imap's in-process
// server and a throwaway Dovecot (.ci/dovecot.sh), both behind a loopback
// proxy (linkproxy.go), so the same table of tests can hang up on, silence
// or refuse the client on either. Test code only.
package imaptest

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// Silence stops all data in both directions without closing anything: a
// server that stops answering. The returned function lets data flow again.
//
// Nothing is lost: each direction holds the chunk it has read (the rest
// waits in the kernel's buffers) and delivers it, in order, on restore, as
// TCP would once a network blackhole clears. A command the client sent
// while silent therefore reaches the server late, perhaps after the client
// gave up on it. A chunk already being written when Silence is called may
// still arrive. Drop, Down and the test's cleanup cut held links as usual.
func (p *Proxy) Silence() (restore func()) {
	p.mu.Lock()
	if p.silent == 0 {
		p.quiet = make(chan struct{})
	}
	p.silent++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.silent--; p.silent == 0 {
				close(p.quiet)
				p.quiet = nil
			}
		})
	}
}

// toxic is one fault on a stream, named after toxiproxy's toxics whose
// attributes it takes.
type toxic struct {
	// latency: each chunk is held Latency ms (± Jitter) after it was read.
	Latency, Jitter int64
	// reset_peer: the first chunk is dropped and, Timeout ms later, the
	// link is reset (RST to both sides).
	Timeout int64
	// limit_data: Bytes more bytes pass on each link (counted from when the
	// toxic was added, or the link opened if later); then the link is
	// closed, the chunk that crosses the limit cut short.
	Bytes int64
}

// Cut is a link that a limit_data toxic closed: its stream, and the last
// bytes the toxic let through on it (up to 1 KiB), so a test can see where
// in the protocol the cut fell.
type Cut struct {
	Stream string
	Tail   []byte
}

// tailMax is how much of a limited stream a link keeps for its Cut.
const tailMax = 1 << 10

// Toxic adds a fault on stream ("upstream", client to server, or
// "downstream", server to client) for every link, live or future, with its
// attributes as JSON, as toxiproxy would. Only the kinds tests use exist:
//
//	latency     {"latency": ms, "jitter": ms}
//	reset_peer  {"timeout": ms}
//	limit_data  {"bytes": n}
//
// limit_data, as toxiproxy's, counts each link on its own: a link live when
// it is added may pass n more bytes, a link opened later n in all; the
// chunk that reaches n is cut short at it, and the link is closed (a FIN
// to both sides, as when the server hangs up). Every such cut is recorded
// (Cuts). With "bytes": 0 a link is closed at its first chunk.
//
// The returned function removes it; a chunk already held stays held.
func (p *Proxy) Toxic(t testing.TB, kind, stream, attrs string) (remove func()) {
	t.Helper()
	if kind != "latency" && kind != "reset_peer" && kind != "limit_data" {
		t.Fatalf("imaptest: no %q toxic (latency, reset_peer, limit_data)", kind)
	}
	if stream != "upstream" && stream != "downstream" {
		t.Fatalf("imaptest: toxic stream %q, want upstream or downstream", stream)
	}
	x := new(toxic)
	if err := json.Unmarshal([]byte(attrs), x); err != nil {
		t.Fatalf("imaptest: %s attributes %s: %v", kind, attrs, err)
	}
	if x.Bytes < 0 {
		t.Fatalf("imaptest: %s attributes %s: negative bytes", kind, attrs)
	}
	name := kind + "_" + stream
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dup := p.toxics[name]; dup {
		t.Fatalf("imaptest: toxic %s already there", name)
	}
	p.toxics[name] = x
	return func() {
		p.mu.Lock()
		if p.toxics[name] == x {
			delete(p.toxics, name)
		}
		p.mu.Unlock()
	}
}

// Cuts returns the links limit_data toxics have closed so far, oldest
// first, and a channel closed at the next such cut: a test waits on it
// rather than polling.
func (p *Proxy) Cuts() ([]Cut, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.cuts), p.nextCut
}

// limit is a limit_data toxic's state on one link: what it let through.
type limit struct {
	passed int64
	tail   []byte
}

// pass decides the fate of a chunk just read on stream: it waits while the
// proxy is silent, then applies the stream's toxics. It returns how much of
// the chunk to write (all of it unless a limit_data toxic cuts it short)
// and whether the link lives on after that write. 0, false: the link was
// cut meanwhile (or reset by a toxic), nothing may be written.
func (p *Proxy) pass(l *link, stream string, chunk []byte) (write int, more bool) {
	read := time.Now()
	for {
		p.mu.Lock()
		quiet := p.quiet
		lat, slow := p.toxics["latency_"+stream]
		rst, reset := p.toxics["reset_peer_"+stream]
		lim, limited := p.toxics["limit_data_"+stream]
		p.mu.Unlock()
		if quiet != nil {
			select {
			case <-quiet:
				continue // toxics may have changed meanwhile
			case <-l.ctx.Done():
				return 0, false
			}
		}
		if slow {
			d := lat.Latency
			if lat.Jitter > 0 {
				d += rand.Int64N(2*lat.Jitter) - lat.Jitter
			}
			if !l.hold(time.Until(read.Add(time.Duration(d) * time.Millisecond))) {
				return 0, false
			}
		}
		if reset {
			if l.hold(time.Duration(rst.Timeout) * time.Millisecond) {
				l.close(true)
			}
			return 0, false
		}
		if limited {
			return p.limit(l, stream, lim, chunk)
		}
		return len(chunk), true
	}
}

// limit applies a limit_data toxic to a chunk; a link that reaches its
// limit is recorded as a Cut (the caller closes it once the chunk is out).
func (p *Proxy) limit(l *link, stream string, x *toxic, chunk []byte) (write int, more bool) {
	l.mu.Lock()
	st := l.limits[x]
	if st == nil {
		st = &limit{}
		l.limits[x] = st
	}
	write = int(min(int64(len(chunk)), x.Bytes-st.passed))
	st.passed += int64(write)
	st.tail = append(st.tail, chunk[:write]...)
	if len(st.tail) > tailMax {
		st.tail = slices.Clone(st.tail[len(st.tail)-tailMax:])
	}
	more = st.passed < x.Bytes
	var tail []byte
	if !more {
		tail = slices.Clone(st.tail)
	}
	l.mu.Unlock()
	if !more {
		p.mu.Lock()
		p.cuts = append(p.cuts, Cut{Stream: stream, Tail: tail})
		close(p.nextCut)
		p.nextCut = make(chan struct{})
		p.mu.Unlock()
	}
	return write, more
}

// hold waits d, or less if the link is cut first (then false).
func (l *link) hold(d time.Duration) bool {
	if d <= 0 {
		return l.ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-l.ctx.Done():
		return false
	}
}

// Package imaptest runs real IMAP servers for tests: go-imap's in-process
// server and a throwaway Dovecot (.ci/dovecot.sh), both behind a loopback
// proxy (linkproxy.go), so the same table of tests can hang up on, silence
// or refuse the client on either. Test code only.
package imaptest

import (
	"encoding/json"
	"math/rand/v2"
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
}

// Toxic adds a fault on stream ("upstream", client to server, or
// "downstream", server to client) for every link, live or future, with its
// attributes as JSON, as toxiproxy would. Only the kinds tests use exist:
//
//	latency     {"latency": ms, "jitter": ms}
//	reset_peer  {"timeout": ms}
//
// The returned function removes it; a chunk already held stays held.
func (p *Proxy) Toxic(t testing.TB, kind, stream, attrs string) (remove func()) {
	t.Helper()
	if kind != "latency" && kind != "reset_peer" {
		t.Fatalf("imaptest: no %q toxic (latency, reset_peer)", kind)
	}
	if stream != "upstream" && stream != "downstream" {
		t.Fatalf("imaptest: toxic stream %q, want upstream or downstream", stream)
	}
	var x toxic
	if err := json.Unmarshal([]byte(attrs), &x); err != nil {
		t.Fatalf("imaptest: %s attributes %s: %v", kind, attrs, err)
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
		delete(p.toxics, name)
		p.mu.Unlock()
	}
}

// pass decides the fate of a chunk just read on stream: it waits while the
// proxy is silent, then applies the stream's toxics. False means the link
// was cut meanwhile (or reset by a toxic): the chunk must not be written.
func (p *Proxy) pass(l *link, stream string) bool {
	read := time.Now()
	for {
		p.mu.Lock()
		quiet := p.quiet
		lat, slow := p.toxics["latency_"+stream]
		rst, reset := p.toxics["reset_peer_"+stream]
		p.mu.Unlock()
		if quiet != nil {
			select {
			case <-quiet:
				continue // toxics may have changed meanwhile
			case <-l.ctx.Done():
				return false
			}
		}
		if slow {
			d := lat.Latency
			if lat.Jitter > 0 {
				d += rand.Int64N(2*lat.Jitter) - lat.Jitter
			}
			if !l.hold(time.Until(read.Add(time.Duration(d) * time.Millisecond))) {
				return false
			}
		}
		if reset {
			if l.hold(time.Duration(rst.Timeout) * time.Millisecond) {
				l.close(true)
			}
			return false
		}
		return true
	}
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

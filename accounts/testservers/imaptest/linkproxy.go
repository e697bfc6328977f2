package imaptest

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy is a loopback TCP proxy between the client and a mail server that
// can hang up on, refuse or silence every connection through it.
//
// It is our own rather than toxiproxy because it must own its listener for
// the whole test: toxiproxy can only cut live connections by stopping (and
// so unbinding) its listener and binding the same port again, which another
// test can take in between ("bind: address already in use" in TestSoak).
// Here the port is bound once, to 127.0.0.1:0, and released only by the
// test's cleanup; every fault acts on the connections, never the listener.
type Proxy struct {
	ln       net.Listener
	upstream string
	accepted sync.WaitGroup // the accept loop
	serving  sync.WaitGroup // one per link, until both its pipes are done

	mu     sync.Mutex
	links  map[*link]struct{}
	down   int           // Down calls not yet undone: refuse while > 0
	quiet  chan struct{} // non-nil while silent; closed when data may flow
	silent int           // Silence calls not yet restored
	toxics map[string]*toxic
	seen   int // connections accepted, refused ones included
	// cuts are the links limit_data toxics closed; nextCut is closed (and
	// replaced) at each.
	cuts    []Cut
	nextCut chan struct{}
}

// link is one client connection and its connection to the upstream.
type link struct {
	ctx    context.Context // done once the link is cut: ends dials and holds
	cancel context.CancelFunc
	done   chan struct{} // closed when the link's goroutines have ended

	mu       sync.Mutex
	client   net.Conn
	upstream net.Conn // nil until dialled
	cut      bool
	limits   map[*toxic]*limit // limit_data toxics' counts on this link
}

// NewProxy listens on 127.0.0.1 and forwards to upstream until the test
// ends; the cleanup cuts every link and waits for every goroutine.
func NewProxy(t testing.TB, upstream string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	p := &Proxy{ln: ln, upstream: upstream, links: map[*link]struct{}{}, toxics: map[string]*toxic{},
		nextCut: make(chan struct{})}
	p.accepted.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is where clients connect; it never changes.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Accepted counts the connections accepted so far, refused ones included:
// a test waits on it for a client's next dial.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

// Drop cuts every connection through the proxy, as a server hanging up
// would (a FIN on both sides); new connections are accepted again at once.
// When Drop returns every cut connection is closed and its goroutines have
// ended, so the client's next read on it reports EOF (or a reset).
func (p *Proxy) Drop() { p.cutAll() }

// Down refuses connections (and cuts the open ones) until the returned
// function is called. The port stays bound, so a "refused" connection is
// accepted and reset at once (SetLinger(0)): the client's dial may succeed
// but its first read fails with ECONNRESET (or EOF), never with data.
func (p *Proxy) Down() (up func()) {
	p.mu.Lock()
	p.down++
	p.mu.Unlock()
	p.cutAll()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.down--
			p.mu.Unlock()
		})
	}
}

// cutAll closes every live link and waits until their goroutines are done.
func (p *Proxy) cutAll() {
	p.mu.Lock()
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	p.mu.Unlock()
	for _, l := range links {
		l.close(false)
	}
	for _, l := range links {
		<-l.done
	}
}

// close is the test cleanup: no new links, then no live ones, then no
// goroutine.
func (p *Proxy) close() {
	p.ln.Close()
	p.accepted.Wait()
	p.cutAll()
	p.serving.Wait()
}

func (p *Proxy) accept() {
	defer p.accepted.Done()
	for {
		c, err := p.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil { // e.g. EMFILE on a loaded box: try again shortly
			time.Sleep(10 * time.Millisecond)
			continue
		}
		p.mu.Lock()
		p.seen++
		if p.down > 0 {
			p.mu.Unlock()
			reset(c)
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		l := &link{ctx: ctx, cancel: cancel, done: make(chan struct{}), client: c, limits: map[*toxic]*limit{}}
		p.links[l] = struct{}{} // registered before the dial: Drop cuts it too
		p.serving.Add(1)
		p.mu.Unlock()
		go p.serve(l)
	}
}

// serve dials the upstream and pipes both ways until either side ends or
// the link is cut; then it closes both sides.
func (p *Proxy) serve(l *link) {
	defer p.serving.Done()
	defer close(l.done)
	defer func() {
		p.mu.Lock()
		delete(p.links, l)
		p.mu.Unlock()
	}()
	var d net.Dialer
	up, err := d.DialContext(l.ctx, "tcp", p.upstream)
	if err != nil {
		l.close(true) // the upstream refuses: so does the proxy
		return
	}
	if !l.attach(up) {
		return
	}
	other := make(chan struct{})
	go func() {
		defer close(other)
		p.pipe(l, up, l.client, "upstream")
	}()
	p.pipe(l, l.client, up, "downstream")
	<-other
}

// pipe copies src to dst chunk by chunk; pass holds, drops or cuts short
// each chunk. Any end (EOF, error, cut, a limit reached) closes the whole
// link: IMAP never half-closes.
func (p *Proxy) pipe(l *link, dst, src net.Conn, stream string) {
	defer l.close(false)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			w, more := p.pass(l, stream, buf[:n])
			if w > 0 {
				if _, werr := dst.Write(buf[:w]); werr != nil {
					return
				}
			}
			if !more {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// attach records the upstream connection, or closes it if the link was
// cut while dialling.
func (l *link) attach(up net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut {
		up.Close()
		return false
	}
	l.upstream = up
	return true
}

// close cuts the link once: both connections, with a reset (RST, pending
// data discarded) rather than a FIN if rst. Closing wakes the pipes' reads
// and writes; cancelling the context wakes dials and holds.
func (l *link) close(rst bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut {
		return
	}
	l.cut = true
	l.cancel()
	for _, c := range []net.Conn{l.client, l.upstream} {
		if c == nil {
			continue
		}
		if rst {
			reset(c)
		} else {
			c.Close()
		}
	}
}

// reset closes c with an RST instead of a FIN.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	c.Close()
}

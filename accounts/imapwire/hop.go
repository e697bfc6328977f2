package imapwire

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	json "github.com/segmentio/encoding/json"
)

// The hop. A listing crosses the pipe between serve-imap and unibox once,
// as JSON, but the SDK would handle its bytes five times over: the
// server's SDK re-encodes a tool's output three times (encoding/json
// compacts a json.RawMessage again at every level it is nested in), and
// the client's decodes structuredContent into a map[string]any, which
// Decode would encode again to read into our types. That made a listing
// through the child twice as slow as go-imap in process.
//
// Both ends are ours, so each carries the bytes past its SDK in its
// transport. The server's holds a tool's encoded output and splices it
// into the response's bytes as they are written (Splicer); the client's
// lifts structuredContent out of the bytes as they are read, before its
// SDK parses them, and Decode reads it straight into our types
// (RawResults, lift.go). The wire is unchanged, byte for
// byte what the SDK would write: another client of serve-imap, or
// serve-imap under another client, sees plain MCP.
//
// A marker names a held output inside a result. It is a JSON object whose
// key starts with a quote, so it can never be part of a string value
// (a quote inside a JSON string is always escaped).
const (
	spliceKey = `{"unibox-splice":"`
	liftKey   = `{"unibox-lifted":"`
)

// holdFor is how long a held output waits to be spliced or read: a
// response the SDK never wrote (its call was cancelled), or a result
// nobody decoded, is dropped after it.
var holdFor = time.Minute

// now is the clock of held outputs (tests move it).
var now = time.Now

// liftMin is the size from which a result's structured content is lifted:
// below it the SDK's own decoding costs next to nothing.
const liftMin = 4 << 10

// held is a table of encoded outputs by number, each dropped after holdFor.
type held struct {
	mu   sync.Mutex
	next uint64
	m    map[uint64]heldBytes
}

type heldBytes struct {
	b  []byte
	at time.Time
}

// put holds b and returns its marker.
func (h *held) put(b []byte, key string) []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := now()
	if h.m == nil {
		h.m = map[uint64]heldBytes{}
	}
	for n, e := range h.m {
		if now.Sub(e.at) > holdFor {
			delete(h.m, n)
		}
	}
	h.next++
	h.m[h.next] = heldBytes{b: b, at: now}
	return fmt.Appendf(nil, `%s%d"}`, key, h.next)
}

// take returns and forgets the output a marker's number names.
func (h *held) take(n uint64) ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.m[n]
	delete(h.m, n)
	return e.b, ok
}

// marker finds a marker of key in b: where it starts and ends, and its
// number.
func marker(b []byte, key string) (start, end int, n uint64, ok bool) {
	start = bytes.Index(b, []byte(key))
	if start < 0 {
		return 0, 0, 0, false
	}
	rest := b[start+len(key):]
	q := bytes.IndexByte(rest, '"')
	if q < 0 || len(rest) < q+2 || rest[q+1] != '}' {
		return 0, 0, 0, false
	}
	n, err := strconv.ParseUint(string(rest[:q]), 10, 64)
	return start, start + len(key) + q + 2, n, err == nil
}

// Splicer carries a server's tool outputs past its SDK: Hold stands a
// marker in for an output, and the transport from Transport writes the
// output in its place.
type Splicer struct {
	held held
	on   bool // set by Transport before the server runs: only then does Hold hold
}

// Hold returns what a result's StructuredContent should be for the
// encoded output b: a marker, when the server runs on the splicing
// transport, or b itself.
func (s *Splicer) Hold(b []byte) json.RawMessage {
	if s == nil || !s.on || len(b) < liftMin {
		return b
	}
	return s.held.put(b, spliceKey)
}

// Writer is w with held outputs spliced into what is written through it:
// the server's SDK encodes a response around the marker, and the output
// goes out in its place. Call it once, before the server runs.
func (s *Splicer) Writer(w io.WriteCloser) io.WriteCloser {
	s.on = true
	return &spliceWriter{WriteCloser: w, s: s}
}

type spliceWriter struct {
	io.WriteCloser
	s *Splicer
}

// Write writes p with every marker in it replaced by its held output. The
// SDK writes each message whole in one Write, so no marker is ever split.
// A marker whose output was dropped goes out as it is, and the client's
// Decode says so.
func (w *spliceWriter) Write(p []byte) (int, error) {
	start, end, n, ok := marker(p, spliceKey)
	if !ok {
		return w.WriteCloser.Write(p)
	}
	var out []byte
	rest := p
	for ok {
		out = append(out, rest[:start]...)
		if b, held := w.s.held.take(n); held {
			out = append(out, b...)
		} else {
			out = append(out, rest[start:end]...)
		}
		rest = rest[end:]
		start, end, n, ok = marker(rest, spliceKey)
	}
	if _, err := w.WriteCloser.Write(append(out, rest...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// liftedContent is the lifted bytes a decoded marker names (ok false: sc
// is no marker).
func liftedContent(sc map[string]any) ([]byte, bool, error) {
	if _, ok := sc[spliceKey[2:len(spliceKey)-3]]; ok && len(sc) == 1 {
		return nil, true, fmt.Errorf("the server dropped this result's structured content before writing it")
	}
	v, ok := sc[liftKey[2:len(liftKey)-3]]
	if !ok || len(sc) != 1 {
		return nil, false, nil
	}
	s, _ := v.(string)
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil, false, nil
	}
	b, ok := lifted.take(n)
	if !ok {
		return nil, true, fmt.Errorf("structured content %d was dropped unread after %v", n, holdFor)
	}
	return b, true, nil
}

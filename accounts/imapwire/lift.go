package imapwire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client's half of the hop (see hop.go): the child's stdout is read a
// line (one JSON-RPC message) at a time, and a large result's
// structuredContent object is lifted out of the line before the SDK parses
// it. The SDK then decodes a marker of a few bytes, and Decode parses the
// lifted bytes once, straight into our types: one pass over a listing
// instead of four (the SDK's framing, its message decoding into a map,
// and Decode's re-encoding and decoding).

// lifted are the structured contents lifted, for Decode.
var lifted held

// RawResults is ct, the serve-imap child's transport, with its large tool
// results lifted past the SDK. The child is started and ended as
// CommandTransport does; the connection adapter finds ct under it
// (conn.Wrapper) to prepare the command and to kill it.
func RawResults(ct *mcp.CommandTransport) mcp.Transport { return liftTransport{ct} }

type liftTransport struct{ ct *mcp.CommandTransport }

// Unwrap is the child's own transport (conn.Wrapper).
func (t liftTransport) Unwrap() mcp.Transport { return t.ct }

func (t liftTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := t.ct.Command
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	td := t.ct.TerminateDuration
	if td <= 0 {
		td = 5 * time.Second // CommandTransport's default
	}
	// The connection is closed by closing the child's stdin, never its
	// stdout (the SDK's reader may still be draining it).
	return (&mcp.IOTransport{Reader: io.NopCloser(&lifter{r: bufio.NewReaderSize(stdout, 64<<10)}),
		Writer: &childStdin{WriteCloser: stdin, cmd: cmd, terminate: td}}).Connect(ctx)
}

// childStdin ends the child as the MCP stdio transport says, as
// CommandTransport does: close its stdin, wait for it to exit, then
// SIGTERM, then SIGKILL, each after terminate.
type childStdin struct {
	io.WriteCloser
	cmd       *exec.Cmd
	terminate time.Duration
}

func (c *childStdin) Close() error {
	if err := c.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	wait := func() (error, bool) {
		t := time.NewTimer(c.terminate)
		defer t.Stop()
		select {
		case err := <-exited:
			return err, true
		case <-t.C:
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if c.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := c.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("unresponsive subprocess")
}

// lifter hands out the child's stdout line by line, each large result
// with its structuredContent lifted.
type lifter struct {
	r    *bufio.Reader
	line []byte // what is left of the current line
	err  error  // the read error after it
}

func (l *lifter) Read(p []byte) (int, error) {
	for len(l.line) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		var line []byte
		line, l.err = l.r.ReadBytes('\n')
		l.line = liftLine(line)
	}
	n := copy(p, l.line)
	l.line = l.line[n:]
	return n, nil
}

var structuredKey = []byte(`"structuredContent":{`)

// liftLine is a JSON-RPC message with its result's structuredContent
// object, if large, replaced by a marker for it. Anything else, or any
// line it cannot read as it expects, passes unchanged.
func liftLine(line []byte) []byte {
	if len(line) < liftMin {
		return line
	}
	i := bytes.Index(line, structuredKey)
	// The key counts only as the result's own ({"jsonrpc":...,"result":{
	// here): depth 2. A quote inside a string is escaped, so the key is
	// never found inside one.
	if i < 0 || depth(line[:i]) != 2 || !bytes.Contains(line[:i], []byte(`"result":{`)) {
		return line
	}
	start := i + len(structuredKey) - 1
	end := valueEnd(line, start)
	if end < 0 {
		return line
	}
	m := lifted.put(line[start:end], liftKey)
	out := make([]byte, 0, start+len(m)+len(line)-end)
	return append(append(append(out, line[:start]...), m...), line[end:]...)
}

// depth is how many objects and arrays are open at the end of b, JSON
// text from the start of a message.
func depth(b []byte) int {
	_, d := scan(b, 0)
	return d
}

// valueEnd is the index just past the object or array that opens at
// b[start], or -1 when b ends first.
func valueEnd(b []byte, start int) int {
	end, _ := scan(b, start)
	return end
}

// scan walks JSON text from b[start], outside strings counting the
// objects and arrays opened: it stops just past the one that closes back
// to depth 0 (end), or at the end of b (end -1, with the depth then).
func scan(b []byte, start int) (end, depth int) {
	inString := false
	for i := start; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return i + 1, 0
			}
		}
	}
	return -1, depth
}

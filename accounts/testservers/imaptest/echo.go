package imaptest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Echo is a careless IMAP server on 127.0.0.1: it refuses every command
// and repeats the client's line in its NO, as some servers put what they
// were sent into their error text: `a1 NO [AUTHENTICATIONFAILED] you
// sent: a1 LOGIN "sam" "pa\"ss"`. It offers SASL-IR, XOAUTH2 and
// OAUTHBEARER, so an AUTHENTICATE carries its base64 initial response on
// the echoed line. With cut > 0 it repeats only the line's first cut
// bytes (a server that quotes a long line cut short).
type Echo struct {
	ln  net.Listener
	cut int
	wg  sync.WaitGroup

	mu    sync.Mutex
	lines []string
	conns []net.Conn
}

// NewEcho starts an Echo server, stopped when the test ends.
func NewEcho(t testing.TB, cut int) *Echo {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &Echo{ln: ln, cut: cut}
	e.wg.Go(e.accept)
	t.Cleanup(e.close)
	return e
}

// Port is the server's port on 127.0.0.1.
func (e *Echo) Port() int { return port(e.ln.Addr().String()) }

// Lines is every line the clients sent, literals inlined.
func (e *Echo) Lines() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lines...)
}

func (e *Echo) close() {
	e.ln.Close()
	e.mu.Lock()
	for _, c := range e.conns {
		c.Close()
	}
	e.mu.Unlock()
	e.wg.Wait()
}

func (e *Echo) accept() {
	for {
		c, err := e.ln.Accept()
		if err != nil {
			return
		}
		e.mu.Lock()
		e.conns = append(e.conns, c)
		e.mu.Unlock()
		e.wg.Go(func() { e.serve(c) })
	}
}

const echoCaps = "IMAP4rev1 SASL-IR AUTH=PLAIN AUTH=XOAUTH2 AUTH=OAUTHBEARER"

// literal is a line's trailing {n} or {n+}.
var literal = regexp.MustCompile(`\{(\d+)(\+?)\}$`)

func (e *Echo) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	fmt.Fprintf(c, "* OK [CAPABILITY %s] careless server ready\r\n", echoCaps)
	for {
		line, err := e.readLine(c, r)
		if err != nil {
			return
		}
		tag, rest, _ := strings.Cut(line, " ")
		verb, args, _ := strings.Cut(rest, " ")
		switch strings.ToUpper(verb) {
		case "CAPABILITY":
			fmt.Fprintf(c, "* CAPABILITY %s\r\n%s OK done\r\n", echoCaps, tag)
			continue
		case "LOGOUT":
			fmt.Fprintf(c, "* BYE bye\r\n%s OK done\r\n", tag)
			return
		case "AUTHENTICATE":
			if !strings.Contains(args, " ") { // no initial response: ask for it
				fmt.Fprint(c, "+ \r\n")
				resp, err := e.readLine(c, r)
				if err != nil {
					return
				}
				line += " " + resp
			}
		}
		if e.cut > 0 && len(line) > e.cut {
			line = line[:e.cut]
		}
		fmt.Fprintf(c, "%s NO [AUTHENTICATIONFAILED] you sent: %s\r\n", tag, line)
	}
}

// readLine reads one command line, with its literals inlined.
func (e *Echo) readLine(c net.Conn, r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		s, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		s = strings.TrimRight(s, "\r\n")
		m := literal.FindStringSubmatch(s)
		if m == nil {
			b.WriteString(s)
			break
		}
		n, _ := strconv.Atoi(m[1])
		if m[2] == "" {
			fmt.Fprint(c, "+ go on\r\n")
		}
		lit := make([]byte, n)
		if _, err := io.ReadFull(r, lit); err != nil {
			return "", err
		}
		b.WriteString(s[:len(s)-len(m[0])] + string(lit))
	}
	e.mu.Lock()
	e.lines = append(e.lines, b.String())
	e.mu.Unlock()
	return b.String(), nil
}

package serveimap

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

func seedN(b *testing.B, mem imaptest.Backend, user string, n int) {
	for i := range n {
		mem.Seed(b, user, "INBOX", mail(fmt.Sprintf("message %d about something", i), "Sender Name <sender@example.org>", time.Duration(i)*time.Minute))
	}
}

func childSession(b *testing.B) *mcp.ClientSession {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0", "UNIBOX_TEST_DIR=" + b.TempDir()}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), imapwire.RawResults(&mcp.CommandTransport{Command: cmd}), nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

// BenchmarkList compares list_messages through the MCP child with the same
// fetch done by go-imap directly in this process, against the same server:
// memimap (in this process, so it shares its cores with the direct client)
// and, when there is one, Dovecot (a server of its own, as in use). Both
// dial the server itself, not the fault proxy.
func BenchmarkList(b *testing.B) {
	backends := []func() listBackend{func() listBackend { m := imaptest.NewMem(b, memimap.Options{}); return listBackend{m, m.Srv.Addr()} }}
	if os.Getenv("UNIBOX_DOVECOT_ADDR") != "" {
		backends = append(backends, func() listBackend { d := imaptest.NewDovecot(b, "alice"); return listBackend{d, d.DirectAddr()} })
	}
	for _, backend := range backends {
		for _, n := range []int{50, 500} {
			be := backend()
			user, pass := be.NewUser(b)
			seedN(b, be, user, n)
			b.Run(fmt.Sprintf("%s/direct-%d", be.Name(), n), func(b *testing.B) { listDirect(b, be.addr, user, pass, n) })
			b.Run(fmt.Sprintf("%s/child-%d", be.Name(), n), func(b *testing.B) { listThroughChild(b, be.addr, user, pass, n) })
		}
	}
}

// listBackend is a server to list from, and its own address.
type listBackend struct {
	imaptest.Backend
	addr string
}

func listDirect(b *testing.B, addr, user, pass string, n int) {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sel, err := c.Select("INBOX", nil).Wait()
		if err != nil {
			b.Fatal(err)
		}
		set := imap.SeqSet{}
		set.AddRange(1, sel.NumMessages)
		bufs, err := c.Fetch(set, fetchSummary).Collect()
		if err != nil || len(bufs) != n {
			b.Fatal(err, len(bufs))
		}
	}
}

func listThroughChild(b *testing.B, addr, user, pass string, n int) {
	cs := childSession(b)
	defer cs.Close()
	host, port, _ := net.SplitHostPort(addr)
	p, _ := strconv.Atoi(port)
	in := imapwire.AddAccountIn{Account: "work", Host: host, Port: p, Security: "none", Username: user, Password: pass}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_account", Arguments: in}); err != nil || res.IsError {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_messages", Arguments: imapwire.ListMessagesIn{Account: "work", Limit: n}})
		if err != nil || res.IsError {
			b.Fatal(err)
		}
		var out imapwire.ListMessagesOut
		if err := imapwire.Decode(res, &out); err != nil || len(out.Messages) != n {
			b.Fatal(err, len(out.Messages))
		}
	}
}

// BenchmarkColdStart: spawn the child, MCP handshake, add_account, list 50.
func BenchmarkColdStart(b *testing.B) {
	mem := imaptest.NewMem(b, memimap.Options{})
	user, pass := mem.NewUser(b)
	seedN(b, mem, user, 50)
	in := imapwire.AddAccountIn{Account: "work", Host: "127.0.0.1", Port: mem.Srv.Port(), Security: "none", Username: user, Password: pass}
	for b.Loop() {
		cs := childSession(b)
		if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_account", Arguments: in}); err != nil || res.IsError {
			b.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_messages", Arguments: imapwire.ListMessagesIn{Account: "work"}})
		if err != nil || res.IsError {
			b.Fatal(err)
		}
		cs.Close()
	}
}

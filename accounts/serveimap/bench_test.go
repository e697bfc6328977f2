package serveimap

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

func seedN(b *testing.B, mem *imaptest.Mem, user string, n int) {
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
// fetch done by go-imap directly in this process, against the same server.
func BenchmarkList(b *testing.B) {
	for _, n := range []int{50, 500} {
		mem := imaptest.NewMem(b, memimap.Options{})
		user, pass := mem.NewUser(b)
		seedN(b, mem, user, n)
		b.Run(fmt.Sprintf("direct-%d", n), func(b *testing.B) {
			c, err := imapclient.DialInsecure(mem.Srv.Addr(), nil)
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
		})
		b.Run(fmt.Sprintf("child-%d", n), func(b *testing.B) {
			cs := childSession(b)
			defer cs.Close()
			in := imapwire.AddAccountIn{Account: "work", Host: "127.0.0.1", Port: mem.Srv.Port(), Security: "none", Username: user, Password: pass}
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
		})
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

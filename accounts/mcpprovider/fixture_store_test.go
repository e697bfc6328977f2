package mcpprovider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixture servers are this test binary re-executed as a child (see
// TestMain). They mimic the real servers' tools, argument shapes, answer
// formats and error habits, read their credentials only from their
// environment like the real ones, and keep their mailbox in a JSON file so
// that it outlives a child and the test can look at it. Knobs are files in
// the same directory.

// fxMsg is one message of the fixture mailbox.
type fxMsg struct {
	UID      uint32    `json:"uid"`
	Folder   string    `json:"folder"`
	Subject  string    `json:"subject"`
	FromName string    `json:"fromName"`
	FromAddr string    `json:"fromAddr"`
	To       string    `json:"to"`
	Date     time.Time `json:"date"`
	Seen     bool      `json:"seen"`
	Flagged  bool      `json:"flagged"`
	Answered bool      `json:"answered"`
	Attach   bool      `json:"attach"`
	Body     string    `json:"body"`
}

// fxBox is the fixture mailbox; uids are per folder but allocated from
// one counter, which keeps the tests' bookkeeping simple.
type fxBox struct {
	NextUID uint32  `json:"nextUID"`
	Msgs    []fxMsg `json:"msgs"`
}

var fxFolders = []struct{ name, special string }{
	{"INBOX", ""}, {"Archive", `\Archive`}, {"Trash", `\Trash`}, {"Sent", `\Sent`}, {"Projects", ""},
}

func loadBox(dir string) (*fxBox, error) {
	b := &fxBox{NextUID: 1}
	data, err := os.ReadFile(filepath.Join(dir, "mailbox.json"))
	if os.IsNotExist(err) {
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	return b, json.Unmarshal(data, b)
}

func (b *fxBox) save(dir string) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "mailbox.json.tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "mailbox.json"))
}

// in returns folder's messages by ascending uid.
func (b *fxBox) in(folder string) []fxMsg {
	var out []fxMsg
	for _, m := range b.Msgs {
		if strings.EqualFold(m.Folder, folder) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y fxMsg) int { return int(x.UID) - int(y.UID) })
	return out
}

func (b *fxBox) find(folder string, uid uint32) *fxMsg {
	for i := range b.Msgs {
		if b.Msgs[i].UID == uid && strings.EqualFold(b.Msgs[i].Folder, folder) {
			return &b.Msgs[i]
		}
	}
	return nil
}

// moveTo moves a message, which gets a new uid in its new folder.
func (b *fxBox) moveTo(m *fxMsg, folder string) {
	m.Folder, m.UID = folder, b.NextUID
	b.NextUID++
}

// fxKnobs steers a fixture child through files in its directory.
type fxKnobs string

func (k fxKnobs) path(name string) string { return filepath.Join(string(k), name) }
func (k fxKnobs) exists(name string) bool {
	_, err := os.Stat(k.path(name))
	return err == nil
}

// take consumes a one-shot knob.
func (k fxKnobs) take(name string) bool { return os.Remove(k.path(name)) == nil }

func (k fxKnobs) log(event, line string) {
	f, err := os.OpenFile(k.path(event+".log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

// passwordOK compares the password the child got from its environment
// with the one the test says the mail server accepts.
func (k fxKnobs) passwordOK(got string) bool {
	want, err := os.ReadFile(k.path("password"))
	if err != nil {
		return got != ""
	}
	return got == strings.TrimSpace(string(want))
}

// fxHandler is one fixture tool: it gets the decoded arguments and the
// mailbox (saved afterwards when it returns changed=true).
type fxHandler func(args map[string]any, box *fxBox) (res *mcp.CallToolResult, changed bool, err error)

// addTool registers a tool that logs its calls, can be made to kill the
// child mid-call (knob "die-<tool>") or to answer garbage ("garbage-<tool>"),
// and refuses to work with a wrong password (refuse says how).
func addTool(s *mcp.Server, k fxKnobs, name string, authOK bool, refuse fxHandler, h fxHandler) {
	s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			k.log("calls", name)
			args := map[string]any{}
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
					return nil, fmt.Errorf("bad arguments: %w", err)
				}
			}
			k.log("args", name+" "+string(req.Params.Arguments))
			if k.take("die-" + name) {
				os.Exit(3) // the connection drops with the call in flight
			}
			if k.exists("garbage-" + name) {
				return textResult("<html>502 Bad Gateway</html>"), nil
			}
			if !authOK {
				res, _, err := refuse(args, nil)
				return res, err
			}
			box, err := loadBox(string(k))
			if err != nil {
				return nil, err
			}
			res, changed, err := h(args, box)
			if err == nil && changed {
				err = box.save(string(k))
			}
			return res, err
		})
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func errorResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

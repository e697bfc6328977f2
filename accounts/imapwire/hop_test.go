package imapwire

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	json "github.com/segmentio/encoding/json"
)

// bigList is a listing large enough to be carried past the SDKs, with
// subjects that look like the markers (escaped inside strings, they can
// never be taken for one).
func bigList(n int) ListMessagesOut {
	out := ListMessagesOut{Folder: "INBOX", UIDValidity: 7, Total: uint32(n)}
	for i := range n {
		out.Messages = append(out.Messages, Message{ID: fmt.Sprintf("w/INBOX/7/%d", i+1), UID: uint32(i + 1), UIDValidity: 7,
			From: Address{Name: "Ann", Address: "ann@example.org"}, To: []Address{},
			Subject: fmt.Sprintf(`m%d %s0"} %s1"}`, i, spliceKey, liftKey), Date: "2026-12-03T10:00:00Z"})
	}
	return out
}

// session runs a server whose list tool answers out, with the splicing
// transport or not, and connects a client, lifting results or not.
func session(t *testing.T, out ListMessagesOut, splice, lifting bool) *mcp.ClientSession {
	t.Helper()
	var sp Splicer
	ms := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	ms.AddTool(&mcp.Tool{Name: "list", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "text with " + spliceKey + `1"}`}}, StructuredContent: sp.Hold(b)}, nil
	})
	// Byte streams, as the child's pipes are.
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	var w io.WriteCloser = fromServer
	if splice {
		w = sp.Writer(fromServer)
	}
	var serverT mcp.Transport = &mcp.IOTransport{Reader: toServer, Writer: w}
	var r io.ReadCloser = toClient
	if lifting {
		r = io.NopCloser(&lifter{r: bufio.NewReader(toClient)})
	}
	var clientT mcp.Transport = &mcp.IOTransport{Reader: r, Writer: fromClient}
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := ms.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait(); cancel() })
	return cs
}

// Whichever end carries the bytes past its SDK, and whether the other does
// too, the client reads the same listing: the wire is plain MCP. A client
// that does not lift (any other MCP client) sees structuredContent as an
// object; a lifting client keeps what it read for a second Decode; a
// small result is left to the SDK.
func TestHopCarriesResultsPastTheSDKs(t *testing.T) {
	for _, n := range []int{2, 200} {
		want := bigList(n)
		for _, tt := range []struct{ splice, lift bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			t.Run(fmt.Sprintf("%d messages, splice %v, lift %v", n, tt.splice, tt.lift), func(t *testing.T) {
				cs := session(t, want, tt.splice, tt.lift)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list"})
				if err != nil {
					t.Fatal(err)
				}
				if text := res.Content[0].(*mcp.TextContent).Text; text != "text with "+spliceKey+`1"}` {
					t.Fatalf("text content changed: %q", text)
				}
				sc, isMap := res.StructuredContent.(map[string]any)
				lifted := tt.lift && n == 200
				if !isMap || lifted != (len(sc) == 1) {
					t.Fatalf("structured content as the SDK decoded it: %T with %d keys (lifted: %v)", res.StructuredContent, len(sc), lifted)
				}
				for range 2 {
					var got ListMessagesOut
					if err := Decode(res, &got); err != nil {
						t.Fatal(err)
					}
					if len(got.Messages) != n || got.Messages[n-1].Subject != want.Messages[n-1].Subject || got.Folder != "INBOX" {
						t.Fatalf("decoded %d messages, last %+v", len(got.Messages), got.Messages[len(got.Messages)-1])
					}
				}
			})
		}
	}
}

// What is held is dropped once its time is up: a response never written
// (its call cancelled) or a result never decoded costs nothing for long,
// and a late Decode says what happened.
func TestHeldBytesAreDroppedInTime(t *testing.T) {
	at := time.Now()
	now = func() time.Time { return at }
	t.Cleanup(func() { now = time.Now })
	var h held
	m := h.put([]byte("x"), liftKey)
	at = at.Add(holdFor + time.Second) // the next put drops it
	h.put([]byte("y"), liftKey)
	_, _, n, ok := marker(m, liftKey)
	if _, kept := h.take(n); !ok || kept || len(h.m) != 1 {
		t.Fatalf("an expired entry was kept (%d held)", len(h.m))
	}

	lifted.put([]byte(`{}`), liftKey) // n+1 in the package table
	res := &mcp.CallToolResult{StructuredContent: map[string]any{liftKey[2 : len(liftKey)-3]: "999999"}}
	if err := Decode(res, &ListMessagesOut{}); err == nil || !strings.Contains(err.Error(), "dropped unread") {
		t.Fatalf("decoding a dropped result: %v", err)
	}
}

// The splicing writer writes each held output in its marker's place, and
// a marker whose output was dropped as it is, which Decode then reports.
func TestSpliceWritesTheHeldBytes(t *testing.T) {
	var sp Splicer
	var out bytes.Buffer
	w := sp.Writer(nopCloser{&out})
	big := func(c string) []byte { return []byte(`{"folder":"` + strings.Repeat(c, liftMin) + `"}`) }
	a, b := big("a"), big("b")
	msg := fmt.Appendf(nil, `[{"structuredContent":%s},{"structuredContent":%s},{"structuredContent":{"unibox-splice":"999"}}]`+"\n", sp.Hold(a), sp.Hold(b))
	if n, err := w.Write(msg); err != nil || n != len(msg) {
		t.Fatalf("write: %d of %d, %v", n, len(msg), err)
	}
	want := `[{"structuredContent":` + string(a) + `},{"structuredContent":` + string(b) + `},{"structuredContent":{"unibox-splice":"999"}}]` + "\n"
	if out.String() != want {
		t.Fatalf("spliced %.120q", out.String())
	}
	if len(sp.held.m) != 0 {
		t.Fatal("a spliced output is still held")
	}
	res := &mcp.CallToolResult{StructuredContent: map[string]any{"unibox-splice": "999"}}
	if err := Decode(res, &ListMessagesOut{}); err == nil || !strings.Contains(err.Error(), "dropped") {
		t.Fatalf("decoding a result whose output was dropped: %v", err)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// liftLine lifts only a large result's own structuredContent object, and
// finds its end past strings that hold braces, quotes and the key itself.
func TestLiftLine(t *testing.T) {
	pad := strings.Repeat("p", liftMin)
	tricky := `{"subject":"} ] { \"structuredContent\":{ \\","x":[{"a":"\\\\"}],"pad":"` + pad + `"}`
	for _, tt := range []struct {
		name, line string
		lifted     string // "" when the line must pass unchanged
	}{
		{"small", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":1}}}`, ""},
		{"large result", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":` + tricky + `,"isError":false}}`, tricky},
		{"key in a string", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\"structuredContent\":{` + pad + `"}]}}`, ""},
		{"key nested deeper", `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"structuredContent":{"a":"` + pad + `"}}}}`, ""},
		{"not a result", `{"jsonrpc":"2.0","method":"x","params":{"structuredContent":{"a":"` + pad + `"}}}`, ""},
		{"cut short", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":"` + pad, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := liftLine([]byte(tt.line))
			if tt.lifted == "" {
				if string(out) != tt.line {
					t.Fatalf("changed: %.100q", out)
				}
				return
			}
			start, end, n, ok := marker(out, liftKey)
			if !ok || string(out[:start])+tricky+string(out[end:]) != tt.line {
				t.Fatalf("lifted line %.200q", out)
			}
			if b, _ := lifted.take(n); string(b) != tt.lifted {
				t.Fatalf("lifted %.100q", b)
			}
		})
	}
}

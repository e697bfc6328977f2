package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
)

// long is a name of exactly n bytes.
func long(n int) string { return "F" + strings.Repeat("x", n-1) }

// idOf is a valid id of message uid of INBOX of exactly n bytes: the uid
// is padded with zeros, which ParseMessageID reads as the same number.
func idOf(uv uint32, uid, n int) string {
	head := fmt.Sprintf("Work/INBOX/%d/", uv)
	tail := fmt.Sprint(uid)
	return head + strings.Repeat("0", n-len(head)-len(tail)) + tail
}

// ids are the ids of uids 1..n of INBOX.
func ids(uv uint32, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: uv, UID: uint32(i + 1)}.String()
	}
	return out
}

// Every agent input is capped before any IMAP traffic: one byte (or one
// id) over its limit is refused whole, with an error naming the field and
// the limit and quoting nothing of the input, and the server sees no
// command for it; exactly at the limit, the call goes through.
func TestInputLimitsHoldBeforeAnyIMAPTraffic(t *testing.T) {
	r := newRig(t, 2, long(model.MaxFolderBytes))
	var list ListOut
	r.mustCall(t, "list_messages", ListIn{}, &list)
	if len(list.Messages) != 2 {
		t.Fatalf("list: %+v", list)
	}
	r.settled(t)
	first, _ := model.ParseMessageID(list.Messages[1].ID)
	uv := first.UIDValidity
	yes := true

	for _, tt := range []struct {
		name, tool string
		args       any
		want       string
	}{
		{"query", "search", SearchIn{Query: strings.Repeat("q", model.MaxQueryBytes+1)}, "query: 1025 bytes, over the limit of 1024 bytes"},
		{"search folder", "search", SearchIn{Query: "hello", Folder: long(model.MaxFolderBytes + 1)}, "folder: 256 bytes, over the limit of 255 bytes"},
		{"list folder", "list_messages", ListIn{Folder: long(model.MaxFolderBytes + 1)}, "folder: 256 bytes, over the limit of 255 bytes"},
		{"account name", "list_messages", ListIn{Accounts: []string{long(model.MaxIDBytes + 1)}}, "accounts[0]: 513 bytes, over the limit of 512 bytes"},
		{"get id", "get_message", GetIn{ID: idOf(uv, 1, model.MaxIDBytes+1)}, "id: 513 bytes, over the limit of 512 bytes"},
		{"ids", "set_flags", FlagsIn{IDs: ids(uv, model.MaxIDsPerCall+1), Seen: &yes}, "ids: 1001 ids, over the limit of 1000 ids"},
		{"one id of several", "archive", IDsIn{IDs: []string{ids(uv, 1)[0], idOf(uv, 2, model.MaxIDBytes+1)}}, "ids[1]: 513 bytes, over the limit of 512 bytes"},
		{"move ids", "move", MoveIn{IDs: ids(uv, model.MaxIDsPerCall+1), To: "Archive"}, "ids: 1001 ids, over the limit of 1000 ids"},
		{"move to", "move", MoveIn{IDs: ids(uv, 1), To: long(model.MaxFolderBytes + 1)}, "to: 256 bytes, over the limit of 255 bytes"},
		// The sizes seen in the field: refused as fast, answered as short.
		{"300 KB query", "search", SearchIn{Query: strings.Repeat("q", 300<<10)}, "query: 307200 bytes, over the limit of 1024 bytes"},
		{"100 KB folder", "move", MoveIn{IDs: ids(uv, 1), To: long(100 << 10)}, "to: 102400 bytes, over the limit of 255 bytes"},
		{"2 MB id", "trash", IDsIn{IDs: []string{idOf(uv, 1, 2<<20)}}, "ids[0]: 2097152 bytes, over the limit of 512 bytes"},
		{"200k ids", "set_flags", FlagsIn{IDs: ids(uv, 200_000), Seen: &yes}, "ids: 200000 ids, over the limit of 1000 ids"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := r.commands()
			start := time.Now()
			res := r.call(t, tt.tool, tt.args, nil)
			took := time.Since(start)
			text := accounts.ResultText(res)
			if !res.IsError || !strings.Contains(text, tt.want) {
				t.Fatalf("want a refusal saying %q, got (error %v) %.300s", tt.want, res.IsError, text)
			}
			if len(text) > 200 || strings.Contains(text, "xxxxxxxx") || strings.Contains(text, "qqqqqqqq") || strings.Contains(text, "00000000") {
				t.Fatalf("the refusal echoes the input (%d bytes): %.300s", len(text), text)
			}
			if after := r.commands(); len(after) != len(before) {
				t.Fatalf("the refused call reached the server: %v", after[len(before):])
			}
			t.Logf("refused in %v", took)
		})
	}

	// Exactly at each limit, the call reaches the server and works.
	sentNew := func(t *testing.T, before []string, verb string) {
		t.Helper()
		if !slices.Contains(r.commands()[len(before):], verb) {
			t.Fatalf("no %s reached the server: %v", verb, r.commands()[len(before):])
		}
	}
	t.Run("query at the limit", func(t *testing.T) {
		// Search answers from the local store's index: it works at the
		// limit, and no server is asked.
		before := r.commands()
		var found SearchOut
		r.mustCall(t, "search", SearchIn{Query: strings.Repeat("q", model.MaxQueryBytes)}, &found)
		if len(found.Accounts) != 1 {
			t.Fatalf("search: %+v", found)
		}
		if after := r.commands()[len(before):]; len(after) != 0 {
			t.Fatalf("search reached the server: %v", after)
		}
	})
	t.Run("folder at the limit", func(t *testing.T) {
		var got ListOut
		r.mustCall(t, "list_messages", ListIn{Folder: long(model.MaxFolderBytes)}, &got)
		if len(got.Accounts) != 1 || !got.Accounts[0].Answered {
			t.Fatalf("list of a %d-byte folder: %+v", model.MaxFolderBytes, got)
		}
	})
	t.Run("id at the limit", func(t *testing.T) {
		var got GetOut
		r.mustCall(t, "get_message", GetIn{ID: idOf(uv, int(first.UID), model.MaxIDBytes)}, &got)
		if got.Subject != "hello" {
			t.Fatalf("get: %+v", got)
		}
	})
	t.Run("ids at the limit", func(t *testing.T) {
		before := r.commands()
		var w WriteOut
		r.mustCall(t, "set_flags", FlagsIn{IDs: ids(uv, model.MaxIDsPerCall), Seen: &yes}, &w)
		if len(w.Outcomes) != model.MaxIDsPerCall || w.Outcomes[0].Status != "done" || w.Outcomes[model.MaxIDsPerCall-1].Status != "already_gone" {
			t.Fatalf("set_flags of %d ids: %d outcomes, %+v", model.MaxIDsPerCall, len(w.Outcomes), w.Outcomes[:2])
		}
		sentNew(t, before, "UID STORE")
	})
	t.Run("destination at the limit", func(t *testing.T) {
		var w WriteOut
		r.mustCall(t, "move", MoveIn{IDs: []string{idOf(uv, int(first.UID), model.MaxIDBytes)}, To: long(model.MaxFolderBytes)}, &w)
		if len(w.Outcomes) != 1 || w.Outcomes[0].Status != "done" {
			t.Fatalf("move to a %d-byte folder: %+v", model.MaxFolderBytes, w.Outcomes)
		}
	})
	t.Run("account name at the limit", func(t *testing.T) {
		res := r.call(t, "list_messages", ListIn{Accounts: []string{long(model.MaxIDBytes)}}, nil)
		text := accounts.ResultText(res)
		if !res.IsError || !strings.Contains(text, "no account") || len(text) > 200 {
			t.Fatalf("an unknown account must be named by a short prefix: %.300s", text)
		}
	})
}

// The tools' input schemas tell an agent the limits, and agree with the
// constants that hold them.
func TestToolSchemasStateTheLimits(t *testing.T) {
	hub := New(&accounts.Set{}, time.Second)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := hub.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait(); hub.Close() }()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema := map[string]string{}
	for _, tl := range tools.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		schema[tl.Name] = string(b)
	}
	folder := fmt.Sprintf("at most %d bytes", model.MaxFolderBytes)
	ids := fmt.Sprintf("at most %d ids, each at most %d bytes", model.MaxIDsPerCall, model.MaxIDBytes)
	for tool, want := range map[string][]string{
		"search":         {fmt.Sprintf("at most %d bytes", model.MaxQueryBytes), folder},
		"list_messages":  {folder},
		"get_message":    {fmt.Sprintf("at most %d bytes", model.MaxIDBytes)},
		"get_attachment": {fmt.Sprintf("at most %d bytes", model.MaxIDBytes)},
		"set_flags":      {ids},
		"archive":        {ids},
		"trash":          {ids},
		"move":           {ids, folder},
	} {
		for _, w := range want {
			if !strings.Contains(schema[tool], w) {
				t.Errorf("%s's input schema does not say %q: %s", tool, w, schema[tool])
			}
		}
	}
}

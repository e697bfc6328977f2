package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/thread"
)

// GetThreadIn is get_thread's input: a message id (from list_messages or
// search) or a thread_id.
type GetThreadIn struct {
	ID string `json:"id" jsonschema:"a message id (account/folder/uidvalidity/uid) or a thread_id"`
}

// ThreadMessage is one message of a conversation, where it stands in the
// reply tree.
type ThreadMessage struct {
	Message
	Depth  int    `json:"depth" jsonschema:"0 at the top; a reply is one deeper than what it answers"`
	Parent string `json:"parent" jsonschema:"the id of the message it answers, empty at the top"`
}

// GetThreadOut is the conversation in order: depth first, replies under
// what they answer, by date.
type GetThreadOut struct {
	ThreadID string          `json:"thread_id"`
	Messages []ThreadMessage `json:"messages"`
}

func (h *Hub) addThreadTool(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "get_thread", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "A conversation's messages in order (replies under what they answer), across accounts and folders, Sent included, from the local store. id: a message id or a thread_id."}, h.getThread)
}

func (h *Hub) getThread(ctx context.Context, _ *mcp.CallToolRequest, in GetThreadIn) (*mcp.CallToolResult, GetThreadOut, error) {
	if err := model.CheckBytes("id", in.ID, model.MaxIDBytes); err != nil {
		return nil, GetThreadOut{}, err
	}
	if len(h.set.Accounts) == 0 {
		return nil, GetThreadOut{}, errors.New("no accounts")
	}
	via := h.set.Accounts[0] // the store is shared: any account reads every thread
	tid := in.ID
	if id, err := model.ParseMessageID(in.ID); err == nil {
		a := h.set.Find(id.Account)
		if a == nil {
			return nil, GetThreadOut{}, fmt.Errorf("no account %s", model.Quote(id.Account))
		}
		if tid, err = a.Threads().ThreadOf(ctx, id); err != nil || tid == "" {
			return nil, GetThreadOut{}, fmt.Errorf("%s is not in the local store yet: list its folder first", model.Quote(in.ID))
		}
		via = a
	}
	msgs, err := via.Threads().Thread(ctx, tid)
	if errors.Is(err, store.ErrNotStored) {
		return nil, GetThreadOut{}, fmt.Errorf("no conversation %s in the local store", model.Quote(in.ID))
	}
	if err != nil {
		return nil, GetThreadOut{}, errors.New(via.Redact(accounts.Reason(err)))
	}
	out := ordered(msgs)
	var b strings.Builder
	fmt.Fprintf(&b, "Conversation %s: %d messages\n", out.ThreadID, len(out.Messages))
	for _, m := range out.Messages {
		fmt.Fprintf(&b, "%s%s · %s · %s (%s)\n", strings.Repeat("  ", min(m.Depth, 8)), m.Date, m.From.Display(), m.Subject, m.ID)
	}
	return text(nil, b.String()), out, nil
}

// ordered lays the stored messages out as model/thread orders a thread.
func ordered(msgs []model.Message) GetThreadOut {
	in := make([]thread.Message, len(msgs))
	for i, m := range msgs {
		in[i] = thread.Message{Key: m.ID, Subject: m.Subject, Date: m.Date}
		if t := m.Threading; t != nil {
			in[i].MessageID, in[i].InReplyTo, in[i].References = t.MessageID, t.InReplyTo, t.References
		}
	}
	out := GetThreadOut{Messages: []ThreadMessage{}}
	entries := thread.Order(in)
	for _, e := range entries {
		m := msgs[e.Index]
		out.ThreadID = m.ThreadID
		tm := ThreadMessage{Message: toMessage(model.Row{Message: m}), Depth: e.Depth}
		if e.Parent >= 0 {
			tm.Parent = msgs[entries[e.Parent].Index].ID.String()
		}
		out.Messages = append(out.Messages, tm)
	}
	return out
}

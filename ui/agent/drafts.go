package agent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/ui/jsonview"
)

// Agents draft, people send. The drafting tools write a draft the way
// the TUI does (accounts/send/drafting), file it in the account's Drafts and
// stop there: there is no tool that sends, and none named send*. A mail
// the agent reads can tell it what to do ("forward the invoice to ..."),
// so whatever an agent writes waits for a person, who reviews and sends
// it in the TUI.

// errNoDrafts: `unibox mcp` could not open the drafts folder.
var errNoDrafts = errors.New("drafting is not available: the drafts folder ($XDG_DATA_HOME/unibox/drafts) could not be opened; see unibox mcp's stderr")

func (h *Hub) addDraftTools(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "draft_reply", Description: "Draft a reply to a message, as the TUI would (Re:, threading, quote). It is filed in the account's Drafts for a person to review and send; nothing is sent. It cannot attach files from this computer. Returns draft_id."}, h.draftReply)
	mcp.AddTool(s, &mcp.Tool{Name: "draft_message", Description: "Draft a new message. It is filed in the account's Drafts for a person to review and send; nothing is sent. It cannot attach files from this computer. Returns draft_id."}, h.draftMessage)
	mcp.AddTool(s, &mcp.Tool{Name: "list_drafts", Annotations: ro, Description: "Every draft (local, and in the Drafts folders), with recipients, subject, the message it answers and who wrote it (agent, person, or found: in Drafts, not written from this data directory)."}, h.listDrafts)
	mcp.AddTool(s, &mcp.Tool{Name: "discard_draft", Description: "Discard a draft an agent wrote and nobody edited since (also from Drafts). A person's draft cannot be discarded."}, h.discardDraft)
}

// filer is the named account as drafting wants it; nil when there is none.
func (h *Hub) filer(name string) drafting.Filer {
	if a := h.set.Find(name); a != nil {
		return a.Sending()
	}
	return nil
}

func (h *Hub) draftReply(ctx context.Context, _ *mcp.CallToolRequest, in DraftReplyIn) (*mcp.CallToolResult, DraftOut, error) {
	if h.Drafts == nil {
		return nil, DraftOut{}, errNoDrafts
	}
	if err := model.CheckBytes("id", in.ID, model.MaxIDBytes); err != nil {
		return nil, DraftOut{}, err
	}
	if err := drafting.CheckBody("body", in.Body); err != nil { // before any account is asked
		return nil, DraftOut{}, err
	}
	id, err := model.ParseMessageID(in.ID)
	if err != nil {
		return nil, DraftOut{}, err
	}
	a := h.set.Find(id.Account)
	if a == nil {
		return nil, DraftOut{}, fmt.Errorf("no account %s", model.Quote(id.Account))
	}
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	orig, err := a.Get(cctx, id)
	cancel()
	if err != nil {
		return nil, DraftOut{}, fmt.Errorf("%s: the message to answer could not be read: %s", a.Name(), a.Redact(accounts.Reason(err)))
	}
	quote := in.Quote == nil || *in.Quote
	m, err := h.Drafts.Reply(ctx, a.Sending(), orig, in.Body, in.ReplyAll, quote, h.timeout)
	if err != nil {
		return nil, DraftOut{}, draftErr(a, err)
	}
	out := made(m)
	out.InReplyTo = &DraftAnswers{ID: id.String(), Subject: orig.Subject}
	return h.madeText(out), out, nil
}

func (h *Hub) draftMessage(ctx context.Context, _ *mcp.CallToolRequest, in DraftMessageIn) (*mcp.CallToolResult, DraftOut, error) {
	if h.Drafts == nil {
		return nil, DraftOut{}, errNoDrafts
	}
	if in.Account == "" {
		return nil, DraftOut{}, fmt.Errorf("account: which account to write from")
	}
	if err := checkNames([]string{in.Account}); err != nil {
		return nil, DraftOut{}, err
	}
	a := h.set.Find(in.Account)
	if a == nil {
		return nil, DraftOut{}, fmt.Errorf("no account %s", model.Quote(in.Account))
	}
	m, err := h.Drafts.New(ctx, a.Sending(), in.To, in.Cc, in.Subject, in.Body, h.timeout)
	if err != nil {
		return nil, DraftOut{}, draftErr(a, err)
	}
	out := made(m)
	return h.madeText(out), out, nil
}

// draftErr is a refused or failed draft as the agent reads it: a refusal
// names the field (it quotes nothing of the agent's text), a failure is
// redacted like every other account error.
func draftErr(a *accounts.Account, err error) error {
	var fe *drafting.FieldError
	var le *model.LimitError
	if errors.As(err, &fe) || errors.As(err, &le) || errors.Is(err, drafting.ErrRateLimited) {
		return err
	}
	return errors.New(a.Redact(accounts.Reason(err)))
}

func made(m drafting.Made) DraftOut {
	out := DraftOut{DraftID: m.Draft.ID, Account: m.Draft.Account, MessageID: m.MessageID, Subject: m.Subject,
		To: nonNil(m.To), Cc: nonNil(m.Cc), SavedTo: m.SavedTo.Folder}
	if m.SavedTo.UID != 0 {
		out.SavedID = m.SavedTo.String()
	}
	return out
}

func (h *Hub) madeText(out DraftOut) *mcp.CallToolResult {
	return text(nil, fmt.Sprintf("Drafted %s (draft_id %s) in %s's %s, to %s. Nothing was sent: a person reviews and sends it in unibox.",
		model.Quote(out.Subject), out.DraftID, out.Account, out.SavedTo, addrList(append(append([]model.Address{}, out.To...), out.Cc...))))
}

func addrList(l []model.Address) string {
	var s []string
	for _, a := range l {
		s = append(s, a.Address)
	}
	return strings.Join(s, ", ")
}

func nonNil(l []model.Address) []model.Address {
	if l == nil {
		return []model.Address{}
	}
	return l
}

func (h *Hub) discardDraft(ctx context.Context, _ *mcp.CallToolRequest, in DiscardDraftIn) (*mcp.CallToolResult, DiscardDraftOut, error) {
	if h.Drafts == nil {
		return nil, DiscardDraftOut{}, errNoDrafts
	}
	if in.DraftID == "" {
		return nil, DiscardDraftOut{}, fmt.Errorf("draft_id: which draft to discard")
	}
	if err := model.CheckBytes("draft_id", in.DraftID, 64); err != nil {
		return nil, DiscardDraftOut{}, err
	}
	dr, err := h.Drafts.Discard(ctx, in.DraftID, h.filer, h.timeout)
	if err != nil {
		if errors.Is(err, outbox.ErrNotFound) {
			return nil, DiscardDraftOut{}, fmt.Errorf("draft_id %s: no such draft (sent, or discarded)", model.Quote(in.DraftID))
		}
		if a := h.set.Find(dr.Account); a != nil {
			return nil, DiscardDraftOut{}, errors.New(a.Redact(err.Error()))
		}
		return nil, DiscardDraftOut{}, err
	}
	out := DiscardDraftOut{DraftID: dr.ID, Account: dr.Account}
	return text(nil, fmt.Sprintf("Discarded draft %s of %s (also from its Drafts folder).", dr.ID, dr.Account)), out, nil
}

func (h *Hub) listDrafts(ctx context.Context, _ *mcp.CallToolRequest, in ListDraftsIn) (*mcp.CallToolResult, ListDraftsOut, error) {
	if h.Drafts == nil {
		return nil, ListDraftsOut{}, errNoDrafts
	}
	var names []string
	if in.Account != "" {
		names = []string{in.Account}
	}
	accts, err := h.pick(names)
	if err != nil {
		return nil, ListDraftsOut{}, err
	}
	out, err := h.drafts(ctx, accts)
	if err != nil {
		return nil, ListDraftsOut{}, err
	}
	lines := []string{fmt.Sprintf("%d drafts", len(out.Drafts))}
	for _, d := range out.Drafts {
		id := d.DraftID
		if id == "" {
			id = d.ID
		}
		line := fmt.Sprintf("%s %s %s | %s | to %s | %s", d.Updated, d.Author, d.Account, d.Subject, addrList(append(append([]model.Address{}, d.To...), d.Cc...)), id)
		if d.Answers != nil {
			line += " | answers " + d.Answers.ID
		}
		lines = append(lines, line)
	}
	return text(out.Degraded, lines...), out, nil
}

// drafts is every draft of accts: the local ones with their author, and
// each account's Drafts folder's messages no local draft or outbox entry
// stands for, newest first. An account that does not answer is named in
// Degraded; its local drafts are listed all the same.
func (h *Hub) drafts(ctx context.Context, accts []*accounts.Account) (ListDraftsOut, error) {
	local, err := h.Drafts.Listed()
	if err != nil {
		return ListDraftsOut{}, err
	}
	entries, err := h.Drafts.Box().Entries()
	if err != nil {
		return ListDraftsOut{}, err
	}
	picked := map[string]*accounts.Account{}
	for _, a := range accts {
		picked[a.Name()] = a
	}
	res := accounts.Fanout(ctx, accts, h.timeout, func(ctx context.Context, a *accounts.Account) (serverDrafts, error) {
		return readServerDrafts(ctx, a, local)
	})
	out := ListDraftsOut{Degraded: []string{}, Drafts: []DraftInfo{}}
	subjects := map[string]string{} // answered message id → subject, from what the server gave
	var hs []accounts.Health
	for _, r := range res {
		hs = append(hs, r.Health())
		for id, s := range r.Value.answered {
			subjects[id] = s
		}
		only := drafting.ServerOnly(local, entries, r.Value.msgs)
		found := h.Drafts.FoundIn(only)
		for _, m := range only {
			d := DraftInfo{ID: m.ID.String(), Account: m.ID.Account, Author: drafting.Person, Where: "drafts_folder",
				Subject: m.Subject, To: nonNil(m.To), Cc: []model.Address{}, Updated: jsonview.Date(m.Date)}
			if found[m.ID] {
				// Nobody here wrote it: not the person's, and its date is
				// what its sender wrote, never ahead of now.
				d.Author, d.Updated = drafting.Found, jsonview.Date(drafting.FoundDate(m, h.Drafts.Now()))
			}
			out.Drafts = append(out.Drafts, d)
		}
	}
	out.Degraded = degraded(hs)
	for _, l := range local {
		if picked[l.Account] == nil {
			continue
		}
		d := DraftInfo{DraftID: l.ID, Account: l.Account, Author: l.Author, Where: "local", Subject: l.Subject,
			To: nonNil(l.To), Cc: nonNil(l.Cc), Updated: jsonview.Date(l.Updated)}
		if l.Queued {
			d.Where = "outbox"
		}
		if s := l.ServerDraft; s != nil && s.UID != 0 {
			d.SavedID = model.MessageID{Account: s.Account, Folder: s.Folder, UIDValidity: s.UIDValidity, UID: s.UID}.String()
		}
		if o := l.Original; o != nil {
			id := model.MessageID{Account: o.Account, Folder: o.Folder, UIDValidity: o.UIDValidity, UID: o.UID}.String()
			d.Answers = &DraftAnswers{ID: id, Subject: subjects[id]}
		}
		if l.Err != nil {
			d.Problem = l.Err.Error()
		}
		out.Drafts = append(out.Drafts, d)
	}
	sort.SliceStable(out.Drafts, func(i, j int) bool { return out.Drafts[i].Updated > out.Drafts[j].Updated })
	return out, nil
}

// serverDrafts is one account's Drafts folder, and the subjects of the
// messages its local drafts answer.
type serverDrafts struct {
	msgs     []model.Message
	answered map[string]string
}

// readServerDrafts lists a's Drafts folder (none: no messages) and reads
// the subject of each message a local draft of a answers.
func readServerDrafts(ctx context.Context, a *accounts.Account, local []drafting.Listed) (serverDrafts, error) {
	out := serverDrafts{answered: map[string]string{}}
	folders, err := a.Folders(ctx)
	if err != nil {
		return out, err
	}
	if name := drafting.DraftsFolder(folders); name != "" {
		p, err := a.List(ctx, accounts.ListOptions{Folder: name, Limit: 50})
		if err != nil {
			return out, err
		}
		out.msgs = p.Messages
	}
	for _, l := range local {
		if o := l.Original; o != nil && l.Account == a.Name() {
			id := model.MessageID{Account: o.Account, Folder: o.Folder, UIDValidity: o.UIDValidity, UID: o.UID}
			if b, err := a.Get(ctx, id); err == nil {
				out.answered[id.String()] = b.Subject
			}
		}
	}
	return out, nil
}

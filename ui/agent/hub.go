// Package agent is `unibox mcp`: unibox itself as an MCP server for agents,
// over every configured account. It answers from whatever accounts are
// reachable and says, first thing, which ones are not and why: isolation
// without disclosure is just hiding a problem. Startup never waits for an
// account to connect.
package agent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/proposing"
	"unibox/accounts/send/drafting"
	"unibox/model"
	"unibox/model/contact"
	"unibox/ui/jsonview"
)

// Hub serves a set of accounts.
type Hub struct {
	set     *accounts.Set
	timeout time.Duration // per account, per tool call
	now     func() time.Time
	// Refresh is how often an account that cannot push is listed again
	// for subscribers (ui.refresh_interval; 0: never).
	Refresh time.Duration
	// Drafts writes agent drafts (nil: the drafting tools say drafting is
	// not available); DraftPoll is how often unibox://drafts subscribers'
	// drafts folder is looked at for changes by any process.
	Drafts    *drafting.Writer
	DraftPoll time.Duration
	// Contacts answers lookup_contact (nil: the tool says there is no
	// index).
	Contacts contact.Book
	// Proposals keeps agents' rule proposals and reads the rules (nil:
	// the rule tools say rules are not kept here).
	Proposals *proposing.Desk
	ctx       context.Context // the watch for subscribers ends with it
	cancel    context.CancelFunc
	watch     *watcher
}

// New serves set; each account gets timeout per call (default 10 s).
// Close ends what subscriptions started.
func New(set *accounts.Set, timeout time.Duration) *Hub {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{set: set, timeout: timeout, now: time.Now, Refresh: 60 * time.Second, DraftPoll: time.Second, ctx: ctx, cancel: cancel}
}

// Close stops watching accounts for subscribers and waits for it.
func (h *Hub) Close() {
	h.cancel()
	if h.watch != nil {
		h.watch.wg.Wait()
	}
}

// Serve runs the hub over r/w (stdio) until the client goes away.
func (h *Hub) Serve(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	defer h.Close()
	return h.Server().Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
}

// Server builds the MCP server with every tool and both resources.
func (h *Hub) Server() *mcp.Server {
	h.watch = &watcher{hub: h, refresh: h.Refresh, ctx: h.ctx}
	if h.Drafts != nil {
		// The drafts' first look is taken now, not when an agent
		// subscribes: under MCP 2026-07-28 Subscribe returns once the
		// request is sent, and the server's handler may run after a
		// draft the agent wrote next (a change it must hear of, taken
		// into the baseline). A change before the subscription is told
		// too: one read too many, never one missed.
		h.watch.draftsBase = h.Drafts.Stamp()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "unibox", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: h.watch.subscribed, UnsubscribeHandler: h.watch.unsubscribed,
	})
	h.watch.server = s
	h.addResources(s)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "inbox_summary", Annotations: ro, Description: "Counts and highlights (newest, unread, flagged) per account. The text's first lines name every account that did not answer, and why."}, h.summary)
	mcp.AddTool(s, &mcp.Tool{Name: "list_messages", Annotations: ro, Description: "Messages of all accounts (or some), merged newest first, with each account's state."}, h.list)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Annotations: ro, Description: "Search every account's mail in the local store's index (offline; no server is asked), newest first, each hit with a snippet of its stored text; covered names the accounts and folders the store could not answer for (not stored, or stored in part)."}, h.search)
	mcp.AddTool(s, &mcp.Tool{Name: "lookup_contact", Annotations: ro, Description: "Complete a recipient as the person would at a To: prompt: the addresses a query matches (the start of an address, of its domain or of a word of a name), best first, from whom the person wrote to and heard from in every account's local store (offline) and their address book. Read only."}, h.lookupContact)
	mcp.AddTool(s, &mcp.Tool{Name: "get_message", Annotations: ro, Description: "One message by id, with its text body; never marks it read."}, h.get)
	mcp.AddTool(s, &mcp.Tool{Name: "set_flags", Description: "Mark read/unread, flag/unflag (absolute). Outcome per message; never retried blindly."}, h.setFlags)
	mcp.AddTool(s, &mcp.Tool{Name: "archive", Description: "Archive messages. Outcome per message; an unknown outcome is settled by reading, never resent blindly."}, h.archive)
	mcp.AddTool(s, &mcp.Tool{Name: "trash", Description: "Move messages to the trash. Outcome per message."}, h.trash)
	mcp.AddTool(s, &mcp.Tool{Name: "move", Description: "Move messages to a folder. Outcome per message."}, h.move)
	mcp.AddTool(s, &mcp.Tool{Name: "snooze", Description: "Snooze messages until a time (RFC 3339): they move to the account's snooze folder and come back to INBOX, unread, at the first sync after it. Outcome per message."}, h.snooze)
	h.addDraftTools(s)
	h.addThreadTool(s)
	h.addAttachmentTool(s)
	h.addRuleTools(s)
	h.addInvitationTools(s)
	mcp.AddTool(s, &mcp.Tool{Name: "account_status", Annotations: ro, Description: "Every account's connection state, error class and last error, without waiting on any."}, h.status)
	return s
}

// pick returns the named accounts, all when none are named.
func (h *Hub) pick(names []string) ([]*accounts.Account, error) {
	if len(names) == 0 {
		return h.set.Accounts, nil
	}
	if err := checkNames(names); err != nil {
		return nil, err
	}
	var out []*accounts.Account
	for _, n := range names {
		a := h.set.Find(n)
		if a == nil {
			return nil, fmt.Errorf("no account %s", model.Quote(n))
		}
		out = append(out, a)
	}
	return out, nil
}

func state(hl accounts.Health) AccountState {
	return AccountState{AccountRef: jsonview.AccountRef{Name: hl.Name, State: string(hl.State)}, ErrorClass: hl.ErrorClass, Error: hl.Error, CooldownSeconds: hl.CooldownSeconds, Answered: hl.OK,
		Store: hl.Store, History: hl.History}
}

func toMessage(r model.Row) Message {
	return Message{MessageRef: jsonview.Ref(r.Message), Envelope: jsonview.Describe(r.Message), HasAttachments: r.HasAttachments, Stale: r.Stale}
}

// degraded lists the accounts that did not answer, one line each.
func degraded(hs []accounts.Health) []string {
	out := []string{}
	for _, h := range hs {
		if !h.OK {
			out = append(out, h.Line())
		}
	}
	return out
}

// text puts the degraded lines first, then the rest.
func text(deg []string, rest ...string) *mcp.CallToolResult {
	lines := append(append([]string{}, deg...), rest...)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(lines, "\n")}}}
}

package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
)

// batch is the messages of one account folder: one write call.
type batch struct {
	acct *accounts.Account
	ids  []model.MessageID
}

// batches groups ids per account and folder; bad ids get an outcome of
// their own instead of failing the call.
func (h *Hub) batches(ids []string) ([]*batch, []Outcome) {
	var order []*batch
	byKey := map[string]*batch{}
	var bad []Outcome
	for _, s := range ids {
		id, err := model.ParseMessageID(s)
		if err != nil {
			bad = append(bad, Outcome{ID: s, Status: "failed", Error: err.Error()})
			continue
		}
		a := h.set.Find(id.Account)
		if a == nil {
			bad = append(bad, Outcome{ID: s, Status: "failed", Error: fmt.Sprintf("no account %s", model.Quote(id.Account))})
			continue
		}
		key := fmt.Sprintf("%s\x00%s\x00%d", a.Name(), model.CanonicalFolder(id.Folder), id.UIDValidity)
		b := byKey[key]
		if b == nil {
			b = &batch{acct: a}
			byKey[key] = b
			order = append(order, b)
		}
		b.ids = append(b.ids, id)
	}
	return order, bad
}

// write applies ops to every batch, accounts side by side. Each batch is
// one intent: nothing retried blindly, unknown outcomes settled by reading.
func (h *Hub) write(ctx context.Context, ids []string, ops []model.Op) (*mcp.CallToolResult, WriteOut, error) {
	var verbs []string
	for _, op := range ops {
		verbs = append(verbs, op.Verb())
	}
	return h.writeEach(ctx, ids, strings.Join(verbs, ", "), dests(ops), func(ctx context.Context, b *batch) ([]Outcome, error) { return applyAll(ctx, b, ops) })
}

// writeEach runs do on every batch, accounts side by side, and reports
// the outcomes under verb. A batch that lives in the account's Sent or
// Drafts, or whose destinations (to, given the account's special
// folders) are one, is refused before do (walls.go).
func (h *Hub) writeEach(ctx context.Context, ids []string, verb string, to func(*accounts.Account, accounts.Specials) []dest, do func(context.Context, *batch) ([]Outcome, error)) (*mcp.CallToolResult, WriteOut, error) {
	if len(ids) == 0 {
		return nil, WriteOut{}, fmt.Errorf("no ids given")
	}
	if err := checkIDs(ids); err != nil {
		return nil, WriteOut{}, err
	}
	bs, bad := h.batches(ids)
	out := WriteOut{Outcomes: append([]Outcome{}, bad...)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	seen := map[string]int{}      // account → its index in out.Accounts
	var healths []accounts.Health // out.Accounts' health, index for index
	var ws walls
	for _, b := range bs {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, h.timeout)
			defer cancel()
			outcomes, err := h.walled(cctx, &ws, b, to, do)
			hl := accounts.HealthOf(b.acct, b.acct.Status(), err, h.now())
			mu.Lock()
			defer mu.Unlock()
			out.Outcomes = append(out.Outcomes, outcomes...)
			if i, ok := seen[hl.Name]; !ok {
				seen[hl.Name] = len(out.Accounts)
				out.Accounts = append(out.Accounts, state(hl))
				healths = append(healths, hl)
			} else if !hl.OK {
				out.Accounts[i], healths[i] = state(hl), hl // one line per account: the failing batch wins
			}
		})
	}
	wg.Wait()
	counts := map[string]int{}
	var lines []string
	for _, o := range out.Outcomes {
		counts[o.Status]++
		if o.Status != "done" {
			lines = append(lines, fmt.Sprintf("%s: %s %s", o.ID, o.Status, o.Error))
		}
	}
	deg := degraded(healths)
	head := fmt.Sprintf("%s: %d done, %d already gone, %d failed, %d unknown", verb,
		counts["done"], counts["already_gone"], counts["failed"], counts["unknown"])
	return text(deg, append([]string{head}, lines...)...), out, nil
}

// walled runs do on b unless the account's wall refuses it: then, or
// when the wall cannot be learned, every message of b fails saying why.
func (h *Hub) walled(ctx context.Context, ws *walls, b *batch, to func(*accounts.Account, accounts.Specials) []dest, do func(context.Context, *batch) ([]Outcome, error)) ([]Outcome, error) {
	w, err := ws.of(ctx, b.acct)
	why := ""
	switch {
	case err != nil:
		why = b.acct.Redact(err.Error())
	case to != nil:
		why = w.check(b, to(b.acct, w.sp))
	default:
		why = w.check(b, nil)
	}
	if why == "" {
		return do(ctx, b)
	}
	final := map[model.MessageID]Outcome{}
	for _, id := range b.ids {
		final[id] = Outcome{ID: id.String(), Status: "failed", Error: why}
	}
	return collect(b.ids, final), err
}

// applyAll runs the ops in order on one batch; a message failing an op is
// not given the next one.
func applyAll(ctx context.Context, b *batch, ops []model.Op) ([]Outcome, error) {
	msgs := make([]model.Message, len(b.ids))
	for i, id := range b.ids {
		msgs[i] = model.Message{ID: id}
	}
	final := map[model.MessageID]Outcome{}
	for _, op := range ops {
		if len(msgs) == 0 {
			break
		}
		res, err := b.acct.Apply(ctx, op, msgs[0].ID.Folder, msgs[0].ID.UIDValidity, msgs)
		if err != nil {
			why := b.acct.Redact(accounts.Reason(err))
			for _, m := range msgs {
				final[m.ID] = Outcome{ID: m.ID.String(), Status: "failed", Error: why}
			}
			return collect(b.ids, final), err
		}
		msgs = outcomes(b.acct, msgs, res, final)
	}
	return collect(b.ids, final), nil
}

// outcomes puts each message's result into final and returns the
// messages done (the next op's).
func outcomes(acct *accounts.Account, msgs []model.Message, res []model.ItemResult, final map[model.MessageID]Outcome) []model.Message {
	byUID := map[uint32]model.ItemResult{}
	for _, r := range res {
		byUID[r.UID] = r
	}
	var next []model.Message
	for _, m := range msgs {
		r, ok := byUID[m.ID.UID]
		o := Outcome{ID: m.ID.String(), Reconciled: r.Reconciled, Error: acct.Redact(r.Err)}
		switch {
		case !ok:
			o.Status, o.Error = "failed", "no answer for this message"
		case r.Kind == model.ResultDone:
			o.Status = "done"
			if r.Dest.UID != 0 {
				o.DestID = r.Dest.String()
			}
			next = append(next, m)
		case r.Kind == model.ResultGone:
			o.Status = "already_gone"
		case r.Kind == model.ResultUnknown:
			o.Status = "unknown"
		default:
			o.Status = "failed"
		}
		final[m.ID] = o
	}
	return next
}

func collect(ids []model.MessageID, final map[model.MessageID]Outcome) []Outcome {
	out := make([]Outcome, 0, len(ids))
	for _, id := range ids {
		out = append(out, final[id])
	}
	return out
}

func (h *Hub) setFlags(ctx context.Context, _ *mcp.CallToolRequest, in FlagsIn) (*mcp.CallToolResult, WriteOut, error) {
	var ops []model.Op
	if in.Seen != nil {
		ops = append(ops, model.Op{Action: model.ActSetSeen, Value: *in.Seen})
	}
	if in.Flagged != nil {
		ops = append(ops, model.Op{Action: model.ActSetFlagged, Value: *in.Flagged})
	}
	if len(ops) == 0 {
		return nil, WriteOut{}, fmt.Errorf("set_flags needs seen and/or flagged")
	}
	return h.write(ctx, in.IDs, ops)
}

func (h *Hub) archive(ctx context.Context, _ *mcp.CallToolRequest, in IDsIn) (*mcp.CallToolResult, WriteOut, error) {
	return h.write(ctx, in.IDs, []model.Op{{Action: model.ActArchive}})
}

func (h *Hub) trash(ctx context.Context, _ *mcp.CallToolRequest, in IDsIn) (*mcp.CallToolResult, WriteOut, error) {
	return h.write(ctx, in.IDs, []model.Op{{Action: model.ActTrash}})
}

func (h *Hub) move(ctx context.Context, _ *mcp.CallToolRequest, in MoveIn) (*mcp.CallToolResult, WriteOut, error) {
	if in.To == "" {
		return nil, WriteOut{}, fmt.Errorf("move needs a destination folder (to)")
	}
	if err := checkFolder("to", in.To); err != nil {
		return nil, WriteOut{}, err
	}
	return h.write(ctx, in.IDs, []model.Op{{Action: model.ActMove, To: in.To}})
}

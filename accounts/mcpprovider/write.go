package mcpprovider

import (
	"context"
	"errors"
	"fmt"

	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
	"unibox/model/textsafe"
)

// writeOp names the operation that carries out op and the placeholders
// only it fills.
func writeOp(op model.Op) (string, map[string]any, error) {
	switch op.Action {
	case model.ActSetSeen:
		action := "unread"
		if op.Value {
			action = "read"
		}
		return opSetSeen, map[string]any{"seen": op.Value, "action": action}, nil
	case model.ActSetFlagged:
		action := "unflag"
		if op.Value {
			action = "flag"
		}
		return opSetFlagged, map[string]any{"flagged": op.Value, "action": action}, nil
	case model.ActArchive:
		return opArchive, nil, nil
	case model.ActTrash:
		return opTrash, nil, nil
	case model.ActMove:
		if op.To == "" {
			return "", nil, errors.New("move without a destination folder")
		}
		return opMove, map[string]any{"to": op.To}, nil
	}
	return "", nil, fmt.Errorf("unknown action %s", op.Action)
}

// Write sends op for each uid, one tool call per message (these servers
// act on one message at a time), and never resends anything: every call
// is made non-idempotent so the adapter does not retry it either.
//
//   - a call the server answered with success is ResultDone;
//   - a call it answered with an error (isError, a text error, a thrown
//     error) is ResultFailed with the server's words;
//   - a call cut off after it may have reached the server is
//     ResultUnknown, and the uids not yet sent are ResultFailed "not sent":
//     the caller reconciles the unknown one by reading, and nothing after
//     it went out.
//
// An error (and no results) means nothing was sent at all: the operation
// is unsupported, or the adapter refused the first call (cooling down,
// auth failed).
func (p *mcpProvider) Write(ctx context.Context, a *conn.Adapter, op model.Op, folder string, _ uint32, uids []uint32) ([]model.ItemResult, error) {
	name, extra, err := writeOp(op)
	if err != nil {
		return nil, &conn.Error{Account: p.account, Op: op.Action.String(), Class: conn.ClassTool, Err: err}
	}
	folder = folderOr(folder)
	m, err := p.mapping(name, folder)
	if err != nil {
		return nil, err
	}
	res := make([]model.ItemResult, 0, len(uids))
	for i, uid := range uids {
		vals := uidValues(folder, uid)
		for k, v := range extra {
			vals[k] = v
		}
		_, _, err := p.call(ctx, a, m.call, vals, false)
		switch {
		case err == nil:
			res = append(res, model.ItemResult{UID: uid, Kind: model.ResultDone})
		case maybeDone(err) || answered(err) && (conn.ClassOf(err) == conn.ClassTimeout || conn.ClassOf(err) == conn.ClassUnavailable):
			// Cut off, or the server says it timed out or lost its mail
			// connection mid-command: it may have acted. Reconcile; stop.
			res = append(res, model.ItemResult{UID: uid, Kind: model.ResultUnknown, Err: reason(err)})
			for _, rest := range uids[i+1:] {
				res = append(res, model.ItemResult{UID: rest, Kind: model.ResultFailed,
					Err: fmt.Sprintf("not sent: the connection was lost while message %d was being %s", uid, op.Verb())})
			}
			return res, nil
		case i == 0 && !answered(err):
			return nil, err
		default:
			res = append(res, model.ItemResult{UID: uid, Kind: model.ResultFailed, Err: reason(err)})
		}
	}
	return res, nil
}

// reason is an error without the account name the caller already shows.
func reason(err error) string {
	var ce *conn.Error
	if errors.As(err, &ce) {
		return textsafe.Line(ce.Reason())
	}
	return textsafe.Line(err.Error())
}

// Cannot says why the server cannot do action on mail in folder, from its
// profile alone ("" when it can): a rule needing it is refused at load.
func (p *mcpProvider) Cannot(action model.Action, folder string) string {
	name, _, err := writeOp(model.Op{Action: action, To: "x"})
	if err != nil {
		return err.Error()
	}
	if _, err := p.mapping(name, folder); err != nil {
		return provider.Why(err)
	}
	return ""
}

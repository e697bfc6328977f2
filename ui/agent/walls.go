package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"unibox/accounts"
	"unibox/model"
)

// Agents' writes never reach Sent or Drafts, as source or destination.
// What is in them is evidence a person's review screen relies on: a
// message in Sent from the account's own address proves "written to
// before" (sent_to), and a draft in Drafts is taken for a draft. An agent
// that could move a stranger's mail to evil@ into Sent would clear the
// "new recipient" mark of its own draft to evil@; one that could trash or
// flag the person's drafts would change what the person finds there. The
// rule lives here, in the agent face: a person in the TUI may do all of
// it. Where Sent and Drafts are is the server's answer (accounts.Specials:
// special-use, the configured names, the LISTed names), and a name is
// compared as a server may take it: without case, with a trailing
// delimiter, with or without an "INBOX." prefix.

// wallRule is the rule's words, in every refusal.
const wallRule = "agents may not move mail into Sent or Drafts, nor change mail there: they are the evidence the review screen relies on (a person can, in unibox)"

// wall is one account's walled folders, keyed by folderKey.
type wall struct {
	sp    accounts.Specials
	names map[string]string // folderKey → the server's name
}

func newWall(sp accounts.Specials) wall {
	w := wall{sp: sp, names: map[string]string{}}
	for _, f := range append([]string{sp.Sent, sp.Drafts}, sp.Walled...) {
		if _, seen := w.names[folderKey(f, sp.Delimiter)]; f != "" && !seen {
			w.names[folderKey(f, sp.Delimiter)] = f // the server's own spelling first
		}
	}
	return w
}

// of is the walled folder folder names ("" when none).
func (w wall) of(folder string) string {
	if folder == "" {
		return ""
	}
	return w.names[folderKey(folder, w.sp.Delimiter)]
}

// folderKey is name as servers may take it: case folded, blanks and
// trailing delimiters ("Sent/", "Sent.") cut, and an INBOX prefix
// ("INBOX.Sent", "INBOX/Sent") dropped, so that every spelling of one
// folder has one key. Two folders it takes for one are both walled: the
// safe side.
func folderKey(name, delim string) string {
	seps := "/." + delim
	k := strings.ToLower(strings.ToUpper(strings.TrimSpace(name)))
	k = strings.TrimRight(k, seps)
	for _, sep := range seps {
		if p := "inbox" + string(sep); strings.HasPrefix(k, p) && len(k) > len(p) {
			return strings.TrimLeft(k[len(p):], seps)
		}
	}
	return k
}

// walls learns each account's wall once per call: a call's batches of
// one account run side by side.
type walls struct {
	mu   sync.Mutex
	byAc map[*accounts.Account]*wallOnce
}

type wallOnce struct {
	once sync.Once
	w    wall
	err  error
}

func (ws *walls) of(ctx context.Context, a *accounts.Account) (wall, error) {
	ws.mu.Lock()
	if ws.byAc == nil {
		ws.byAc = map[*accounts.Account]*wallOnce{}
	}
	o := ws.byAc[a]
	if o == nil {
		o = &wallOnce{}
		ws.byAc[a] = o
	}
	ws.mu.Unlock()
	o.once.Do(func() {
		sp, err := a.Specials(ctx)
		if err != nil {
			o.err = fmt.Errorf("where Sent and Drafts are could not be learned, so nothing was changed: %w", err)
			return
		}
		o.w = newWall(sp)
	})
	return o.w, o.err
}

// dests is where ops would put a batch's messages: the move's folder, the
// archive, the trash, as the account's server resolves them.
func dests(ops []model.Op) func(*accounts.Account, accounts.Specials) []dest {
	return func(_ *accounts.Account, sp accounts.Specials) []dest {
		var out []dest
		for _, op := range ops {
			switch op.Action {
			case model.ActMove:
				out = append(out, dest{op.To, ""})
			case model.ActArchive:
				out = append(out, dest{sp.Archive, "the archive folder"})
			case model.ActTrash:
				out = append(out, dest{sp.Trash, "the trash folder"})
			}
		}
		return out
	}
}

// dest is a destination folder, and what it is when not named by the
// agent ("the archive folder").
type dest struct{ folder, what string }

// check is why b may not be written under w ("" when it may): it lives
// in a walled folder, or one of its destinations is one.
func (w wall) check(b *batch, ds []dest) string {
	if f := w.of(b.ids[0].Folder); f != "" {
		return fmt.Sprintf("refused: this message is in %s, the account's Sent or Drafts; %s", model.Quote(f), wallRule)
	}
	for _, d := range ds {
		f := w.of(d.folder)
		switch {
		case f == "":
		case d.what != "":
			return fmt.Sprintf("refused: %s of this account is %s, its Sent or Drafts; %s", d.what, model.Quote(f), wallRule)
		default:
			return fmt.Sprintf("refused: %s is the account's Sent or Drafts; %s", model.Quote(f), wallRule)
		}
	}
	return ""
}

// snoozeDest is where snooze puts messages: the account's snooze folder
// (snooze_folder), walled like any other destination.
func snoozeDest(a *accounts.Account, _ accounts.Specials) []dest {
	return []dest{{a.Snoozing().SnoozeFolder(), "the snooze folder"}}
}

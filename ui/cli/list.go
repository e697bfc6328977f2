package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// AccountJSON is one account's line in `list --json` (public names).
type AccountJSON struct {
	jsonview.AccountRef
	Error           string `json:"error"`
	ErrorClass      string `json:"error_class"`
	CooldownSeconds int    `json:"cooldown_seconds"`
	Count           int    `json:"count"`
	// SyncedAt is when the account's rows were last confirmed by its
	// server (RFC 3339; empty: never).
	SyncedAt string `json:"synced_at"`
	// Store is what is wrong with the local store ("database or disk is
	// full": the rows came from the server, not remembered); empty when
	// nothing is.
	Store string `json:"store"`
}

// MessageJSON is one message in `list --json` (public names): the shared
// record, with the uid and uidvalidity scripts use to go to the server,
// and how fresh it is: stale rows come from the local store, not from a
// listing made now (the account did not answer, or --cached).
type MessageJSON struct {
	jsonview.MessageRef
	UID         uint32 `json:"uid"`
	UIDValidity uint32 `json:"uidvalidity"`
	jsonview.Envelope
	Stale    bool   `json:"stale"`
	SyncedAt string `json:"synced_at"`
	// Answered and Forwarded are \Answered and $Forwarded: the message was
	// replied to, or forwarded.
	Answered  bool            `json:"answered"`
	Forwarded bool            `json:"forwarded"`
	to        []model.Address // for the text table of a Sent listing
}

type ListJSON struct {
	Accounts []AccountJSON `json:"accounts"`
	Messages []MessageJSON `json:"messages"`
}

// listed is one account's part of a listing: its page, from the server
// now or from the store.
type listed struct {
	health   accounts.Health
	page     accounts.Page
	has      bool // page holds the account's rows (answered now, or stored)
	stale    bool // they come from the store
	ok       bool // the rows were had as asked: from the server, or with --cached from the store
	syncedAt time.Time
}

// List is `unibox list`: the unified inbox once, then exit. Each
// account has its own deadline: a hung one is reported as timed out while
// the others answer at their own speed, and the rows it had last time
// come from the local store, marked stale. With --cached nothing dials:
// every row comes from the store.
func List(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("list", "usage: unibox list [--json] [--account NAME]... [--folder NAME] [--limit N] [--unread] [--threads] [--cached] [--timeout 10s]", stderr)
	folder := f.fs.String("folder", "", "this folder instead of the inbox (\"Sent\": the sent folder)")
	limit := f.fs.Int("limit", 50, "messages per account")
	unread := f.fs.Bool("unread", false, "only unread messages")
	cached := f.fs.Bool("cached", false, "print what the local store holds, without connecting")
	threads := f.fs.Bool("threads", false, "one entry per conversation instead of per message")
	if !f.parse(args, func() bool { return *limit > 0 }) {
		return launch.ExitUsage
	}
	mode := launch.StoreOpen
	if *cached {
		mode = launch.StoreExisting
	}
	env, accts, code := f.open(mode)
	if env == nil {
		return code
	}
	defer env.Close()
	var all []listed
	if *cached {
		all = fromStore(env.Store, accts, *folder, *limit, *unread)
		storeProblem(stderr, all)
	} else {
		all = fromServers(accts, f.timeout, *folder, *limit, *unread)
		folderProblems(stderr, all)
	}
	out, ok := listOutput(all)
	for _, a := range out.Accounts {
		if a.Store != "" && !strings.HasPrefix(a.Store, "off:") { // an unopened store was warned of at launch
			fmt.Fprintf(stderr, "unibox: warning: %s: store: %s (its messages are listed, not remembered)\n", textsafe.Line(a.Name), textsafe.Line(a.Store))
		}
	}
	var shown any = out
	if *threads {
		shown = conversations(out)
	}
	if f.json {
		if err := writeJSON(stdout, shown); err != nil {
			fmt.Fprintln(stderr, "unibox list:", err)
			return launch.ExitNone
		}
	} else if *threads {
		printThreads(stdout, shown.(ThreadsJSON))
	} else {
		printList(stdout, out, sentListing(env.Config, *folder))
	}
	return exitCode(ok, len(all))
}

// fromServers lists folder ("": the inbox) of every account at once; one
// that does not answer shows its stored rows, stale.
func fromServers(accts []*accounts.Account, timeout time.Duration, folder string, limit int, unread bool) []listed {
	results := accounts.Fanout(context.Background(), accts, timeout, func(ctx context.Context, a *accounts.Account) (accounts.Page, error) {
		return newest(ctx, a, folder, limit, unread)
	})
	out := make([]listed, len(results))
	for i, r := range results {
		out[i] = listed{health: r.Health(), page: r.Value, has: r.Err == nil, ok: r.Err == nil, syncedAt: r.At}
		if r.Err != nil {
			var err error
			out[i].page, out[i].syncedAt, err = stored(r.Account, folder, limit, unread)
			out[i].has = err == nil
			out[i].stale = out[i].has
		}
	}
	return out
}

// fromStore is every account as the store has it (nothing dials). An
// account the store could not read says why, as its error (class
// "store"): nothing else would, since nothing dialled. A damaged file is
// set aside on the way (st's Problem says where it went), and the
// accounts read after that find a new, empty store: theirs is the same
// error, not a quiet "nothing stored".
func fromStore(st *store.Store, accts []*accounts.Account, folder string, limit int, unread bool) []listed {
	out := make([]listed, len(accts))
	errs := make([]error, len(accts))
	for i, a := range accts {
		out[i] = listed{health: a.Health()}
		out[i].page, out[i].syncedAt, errs[i] = stored(a, folder, limit, unread)
		out[i].has = errs[i] == nil
		out[i].stale, out[i].ok = out[i].has, out[i].has
	}
	problem := ""
	if st != nil {
		problem = st.Problem()
	}
	for i, err := range errs {
		switch {
		case notStoredFolder(folder, err) != "" && problem == "":
			out[i].health.ErrorClass, out[i].health.Error = "store", notStoredFolder(folder, err)
		case err == nil, errors.Is(err, store.ErrNotStored) && problem == "":
		case problem != "":
			out[i].health.ErrorClass, out[i].health.Error = "store", problem
		default:
			out[i].health.ErrorClass, out[i].health.Error = "store", "local store: "+err.Error()
		}
	}
	return out
}

// folderProblems says on stderr which accounts lack the folder asked
// for (the table's column cuts the folder names short).
func folderProblems(stderr io.Writer, all []listed) {
	for _, l := range all {
		if strings.HasPrefix(l.health.Error, "no folder ") {
			fmt.Fprintf(stderr, "unibox list: %s: %s\n", textsafe.Line(l.health.Name), textsafe.Line(l.health.Error))
		}
	}
}

// storeProblem says once on stderr what the store could not read (the
// table's column cuts it short).
func storeProblem(stderr io.Writer, all []listed) {
	for _, l := range all {
		if l.health.ErrorClass == "store" {
			fmt.Fprintln(stderr, "unibox list:", l.health.Error)
			return
		}
	}
}

// stored is a's newest stored page of folder ("": the inbox; unread rows
// only with unread); store.ErrNotStored when the store has nothing of it.
func stored(a *accounts.Account, folder string, limit int, unread bool) (accounts.Page, time.Time, error) {
	p, at, err := a.Stored().Cached(context.Background(), folder, limit)
	if err != nil {
		return accounts.Page{}, time.Time{}, err
	}
	if unread {
		p.Messages = slices.DeleteFunc(p.Messages, func(m model.Message) bool { return m.Seen })
	}
	return p, at, nil
}

// pick selects the named accounts (all when none are named).
func pick(set *accounts.Set, names []string) ([]*accounts.Account, error) {
	if len(names) == 0 {
		return set.Accounts, nil
	}
	var out []*accounts.Account
	for _, n := range names {
		a := set.Find(n)
		if a == nil {
			var known []string
			for _, x := range set.Accounts {
				known = append(known, x.Name())
			}
			return nil, fmt.Errorf("no account %q (accounts: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, a)
	}
	return out, nil
}

func exitCode(ok, total int) int {
	switch {
	case ok == total:
		return launch.ExitOK
	case ok == 0:
		return launch.ExitNone
	}
	return launch.ExitPartial
}

// listOutput merges the pages newest first and describes every account;
// ok counts the accounts whose rows were had as asked.
func listOutput(all []listed) (ListJSON, int) {
	var names []string
	for _, l := range all {
		names = append(names, l.health.Name)
	}
	inbox := model.NewInbox(names).KeepScreened()
	out := ListJSON{Accounts: []AccountJSON{}, Messages: []MessageJSON{}}
	fresh := map[string]listed{}
	ok := 0
	for _, l := range all {
		aj := describe(l.health)
		aj.SyncedAt = jsonview.Date(l.syncedAt)
		if l.ok {
			ok++
		}
		if l.has {
			aj.Count = len(l.page.Messages)
			inbox.Replace(l.health.Name, l.page.Messages, l.page.More)
			inbox.SetStale(l.health.Name, l.stale)
		}
		fresh[l.health.Name] = l
		out.Accounts = append(out.Accounts, aj)
	}
	for _, row := range inbox.Rows() {
		m := row.Message
		out.Messages = append(out.Messages, MessageJSON{MessageRef: jsonview.Ref(m), UID: m.ID.UID, UIDValidity: m.ID.UIDValidity,
			Envelope: jsonview.Describe(m), Stale: row.Stale, SyncedAt: jsonview.Date(fresh[m.ID.Account].syncedAt),
			Answered: m.Answered, Forwarded: m.Forwarded, to: m.To})
	}
	return out, ok
}

// describe is an account's line of `list --json`.
func describe(h accounts.Health) AccountJSON {
	return AccountJSON{AccountRef: jsonview.AccountRef{Name: h.Name, State: string(h.State)}, Error: h.Error, ErrorClass: h.ErrorClass, CooldownSeconds: h.CooldownSeconds, Store: h.Store}
}

// sentListing reports whether folder is a Sent folder: "Sent", which
// names each account's, or an account's sent_folder. Its table names
// whom each message went to instead of who sent it (the person).
func sentListing(cfg *config.Config, folder string) bool {
	if strings.EqualFold(folder, "sent") {
		return true
	}
	for _, a := range cfg.Accounts {
		if folder != "" && a.SentFolder == folder {
			return true
		}
	}
	return false
}

// printList is the text of a listing: the accounts, then the messages,
// from whom (to whom, in a Sent listing).
func printList(w io.Writer, out ListJSON, sent bool) {
	tw := newTable(w)
	fmt.Fprintln(tw, "ACCOUNT\tSTATE\tMESSAGES\tPROBLEM")
	for _, a := range out.Accounts {
		problem := a.Error
		if a.CooldownSeconds > 0 {
			problem = fmt.Sprintf("cooling down %ds: %s", a.CooldownSeconds, problem)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", textsafe.Line(a.Name), a.State, a.Count, clip(problem, 80))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = newTable(w)
	who := "FROM"
	if sent {
		who = "TO"
	}
	fmt.Fprintln(tw, "DATE\tACCOUNT\tFLAGS\t"+who+"\tSUBJECT")
	for _, m := range out.Messages {
		flags, date := rowMarks(m.Envelope)
		person := m.From.Display()
		if sent {
			person = recipients(m.to)
		}
		subject := clip(m.Subject, 60)
		if n := model.Invitation(strings.ToUpper(m.Invitation)).Mark(); n != "" {
			subject = n + " " + subject // as the TUI's row says it
		}
		if m.Screened {
			subject = "[screened] " + subject // not in the person's inbox: waits for their decision
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", date, textsafe.Line(m.Account), flags,
			clip(person, 24), subject)
	}
	tw.Flush()
}

// rowMarks are a table row's flags (• unread, ! flagged) and its date in
// local time.
func rowMarks(e jsonview.Envelope) (flags, date string) {
	if !e.Seen {
		flags += "•"
	}
	if e.Flagged {
		flags += "!"
	}
	date = e.Date
	if t, err := time.Parse(time.RFC3339, e.Date); err == nil {
		date = t.Local().Format("2006-01-02 15:04")
	}
	return flags, date
}

// recipients names the first recipient, and how many more there are.
func recipients(to []model.Address) string {
	switch len(to) {
	case 0:
		return ""
	case 1:
		return to[0].Display()
	}
	return fmt.Sprintf("%s +%d", to[0].Display(), len(to)-1)
}

// clip sanitises s and cuts it to w columns, without padding.
func clip(s string, w int) string { return strings.TrimRight(textsafe.Fit(textsafe.Line(s), w), " ") }

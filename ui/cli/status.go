package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
	"unibox/ui/launch"
)

// StatusJSON is one account in `status --json`.
type StatusJSON struct {
	jsonview.AccountRef
	LatencyMS  int64  `json:"latency_ms"`
	ErrorClass string `json:"error_class"`
	Error      string `json:"error"`
	Connects   int    `json:"connects"`
	// Store and History say what is wrong with the account's local store
	// ("database or disk is full") and history ("off: mkdir ...: not a
	// directory"); empty when nothing is. The account works regardless.
	Store   string `json:"store"`
	History string `json:"history"`
	// Unread is INBOX's unread count, the folder's own (the TUI's badge
	// says the same): from the store when it holds the whole folder,
	// else from the server; null when nothing is known of it.
	// UnreadExact is false when it is only what the store holds of the
	// folder (a server that cannot count, or did not answer).
	Unread      *int `json:"unread"`
	UnreadExact bool `json:"unread_exact"`
}

// probed is one account's probe: how long it took, and INBOX's count.
type probed struct {
	took  time.Duration
	count accounts.Count
	known bool
}

// Status is `unibox status`: a health probe per account (start the
// provider, provision it, one cheap call that reaches the mail server).
func Status(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("status", "usage: unibox status [--json] [--history] [--account NAME]... [--timeout 10s]", stderr)
	hist := f.fs.Bool("history", false, "print what each account went through (from its history file) instead of probing")
	if !f.parse(args, nil) {
		return launch.ExitUsage
	}
	env, accts, code := f.open(launch.StoreOpen)
	if env == nil {
		return code
	}
	defer env.Close()
	if *hist {
		return printHistory(stdout, stderr, accts, f.json)
	}
	results := accounts.Fanout(context.Background(), accts, f.timeout, func(ctx context.Context, a *accounts.Account) (probed, error) {
		start := time.Now()
		// Refresh connects (spawn + handshake + add_account) and probes.
		err := a.Refresh(ctx)
		p := probed{took: time.Since(start)}
		a.CheckStore(ctx) // can the store take a write (a full disk)?
		// Counted after the probe: a down account's count is the store's.
		p.count, p.known, _ = a.Counting().Refresh(ctx, "")
		return p, err
	})
	var out []StatusJSON
	ok := 0
	for _, r := range results {
		h := r.Health()
		// A probe that answered reports no error, whatever the connection
		// went through before it.
		sj := StatusJSON{AccountRef: jsonview.AccountRef{Name: h.Name, State: string(h.State)}, ErrorClass: h.ErrorClass,
			Error: h.LastError, Connects: h.Connects, Store: h.Store, History: h.History}
		if r.Value.known {
			sj.Unread, sj.UnreadExact = &r.Value.count.Unread, r.Value.count.Exact
		}
		if h.OK {
			ok++
			sj.LatencyMS = r.Value.took.Milliseconds()
		} else {
			sj.Error = h.Error
		}
		out = append(out, sj)
	}
	printAccounts(stdout, f.json, out, "ACCOUNT\tSTATE\tLATENCY\tUNREAD\tCLASS\tERROR", func(s StatusJSON) string {
		return fmt.Sprintf("%s\t%s\t%dms\t%s\t%s\t%s", textsafe.Line(s.Name), s.State, s.LatencyMS, unreadCell(s), s.ErrorClass, clip(s.Error, errorColumn))
	})
	if !f.json {
		for _, s := range out {
			printCutError(stdout, s.Name, s.Error)
			printTrouble(stdout, s.Name, s.Store, s.History)
		}
		printOutbox(stdout, env)
	}
	return exitCode(ok, len(results))
}

// unreadCell is the UNREAD column: the count as every screen says it
// ("600", "~33" for the stored part of a folder), "-" when none is known.
func unreadCell(s StatusJSON) string {
	if s.Unread == nil {
		return "-"
	}
	return accounts.Count{Unread: *s.Unread, Exact: s.UnreadExact}.String()
}

// printOutbox says what waits in the outbox, a line each: mail a person
// left counting down when they quit goes at the next start, and a
// refused or uncertain message waits for them.
func printOutbox(w io.Writer, env *launch.Env) {
	box, err := env.Outbox()
	if err != nil {
		return
	}
	entries, err := box.Entries()
	if err != nil {
		fmt.Fprintf(w, "outbox: cannot be read: %s\n", textsafe.Line(err.Error()))
		return
	}
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(w, "outbox: an entry is damaged and set aside: %s\n", textsafe.Line(e.Err.Error()))
			continue
		}
		what := "sent, filing its copy"
		switch e.State {
		case outbox.StateQueued:
			what = "waits, goes at " + e.SendAt.Local().Format("2006-01-02 15:04") + " (or the next start of unibox, or `unibox sync`)"
			if e.LastError != "" {
				what = "waits for its server: " + e.LastError
			}
		case outbox.StateFailed:
			what = "not sent: " + e.LastError
		case outbox.StateUnknown:
			what = "may have been sent: check Sent"
		}
		fmt.Fprintf(w, "outbox: %s: to %s: %s\n", textsafe.Line(e.Account), clip(strings.Join(e.Rcpt, ", "), 60), textsafe.Line(what))
	}
}

// errorColumn is how wide the table's ERROR column may be.
const errorColumn = 80

// printCutError says an error the table's column cut, whole and on its
// own line ("Work: the certificate of … is not trusted (…); if the server
// uses its own CA, set tls_ca_file to its PEM file"): an error's end is
// often its fix, the very part the column lost.
func printCutError(w io.Writer, name, err string) {
	if line := textsafe.Line(err); textsafe.Width(line) > errorColumn {
		fmt.Fprintf(w, "%s: %s\n", textsafe.Line(name), line)
	}
}

// printTrouble says, one line each, what is wrong with an account's store
// and history ("Work: store: database or disk is full"): not the
// account's failure, so not in its error column.
func printTrouble(w io.Writer, name, store, history string) {
	if store != "" {
		fmt.Fprintf(w, "%s: store: %s\n", textsafe.Line(name), textsafe.Line(store))
	}
	if history != "" {
		fmt.Fprintf(w, "%s: history: %s\n", textsafe.Line(name), textsafe.Line(history))
	}
}

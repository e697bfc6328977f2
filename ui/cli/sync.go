package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"

	"unibox/accounts"
	"unibox/model/textsafe"
	"unibox/ui/launch"
)

// SyncJSON is one account in `sync --json` (public names).
type SyncJSON struct {
	Name   string `json:"name"`
	Folder string `json:"folder"`
	State  string `json:"state"`
	// Method is how the store was brought up to date: "sync" (only what
	// changed, the whole folder held) or "list" (an account that cannot
	// sync: its newest page).
	Method     string  `json:"method"`
	Stored     uint32  `json:"stored"`
	Total      uint32  `json:"total"`
	Seconds    float64 `json:"seconds"`
	Error      string  `json:"error"`
	ErrorClass string  `json:"error_class"`
}

// Sync is `unibox sync`: bring every account's inbox (or each --folder)
// in the local store up to date, the whole folder, then exit (what the
// TUI does a page at a time, for a cron job, or before going offline).
// Each page is stored as it comes, so a sync cut off goes on from there
// next time. Then what waits in the outbox and is due is sent
// (syncOutbox). --timeout bounds each call, not the whole sync: a first sync
// of a big folder takes as many calls as it has pages. Accounts sync side
// by side; an account's folders one after another.
func Sync(args []string, stdout, stderr io.Writer) int {
	f := newFaceFlags("sync", "usage: unibox sync [--json] [--account NAME]... [--folder NAME]... [--timeout 10s]", stderr)
	var folders stringList
	f.fs.Var(&folders, "folder", "this folder (repeatable; default INBOX)")
	if !f.parse(args, nil) {
		return launch.ExitUsage
	}
	if len(folders) == 0 {
		folders = stringList{""} // the inbox, as each provider names it
	}
	env, accts, code := f.open(launch.StoreOpen)
	if env == nil {
		return code
	}
	defer env.Close()
	var names []string
	for _, a := range accts {
		for _, folder := range folders {
			name := textsafe.Line(a.Name())
			if len(folders) > 1 {
				name += "/" + textsafe.Line(folder)
			}
			names = append(names, name)
		}
	}
	prog := newProgress(stderr, names)
	out := make([]SyncJSON, len(names))
	var wg sync.WaitGroup
	for i, a := range accts {
		wg.Go(func() {
			for j, folder := range folders {
				row := i*len(folders) + j
				out[row] = syncOne(a, folder, f.timeout, func(p accounts.SyncProgress) { prog.set(row, p) })
			}
		})
	}
	wg.Wait()
	prog.done()
	syncOutbox(env, accts, f.timeout, stderr)
	ok := 0
	for _, s := range out {
		if s.Error == "" {
			ok++
		}
	}
	printAccounts(stdout, f.json, out, "ACCOUNT\tFOLDER\tSTATE\tMETHOD\tSTORED\tTOTAL\tTOOK\tERROR", func(s SyncJSON) string {
		return fmt.Sprintf("%s\t%s\t%s\t%s\t%d\t%d\t%.1fs\t%s", textsafe.Line(s.Name), textsafe.Line(s.Folder), s.State, s.Method, s.Stored, s.Total, s.Seconds, clip(s.Error, 80))
	})
	return exitCode(ok, len(out))
}

// syncOne syncs a's folder to the end, a call at a time under timeout;
// an account that cannot sync has its newest page listed into the store.
func syncOne(a *accounts.Account, folder string, timeout time.Duration, progress func(accounts.SyncProgress)) SyncJSON {
	start := time.Now()
	out := SyncJSON{Name: a.Name(), Folder: cmp.Or(folder, "INBOX"), Method: "sync"}
	var err error
	for {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		var p accounts.SyncProgress
		var done bool
		p, done, err = a.Stored().SyncStep(ctx, folder)
		cancel()
		if errors.Is(err, accounts.ErrNoSync) {
			out.Method = "list"
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			var page accounts.Page
			page, err = a.List(ctx, accounts.ListOptions{Folder: folder})
			cancel()
			out.Stored, out.Total = uint32(len(page.Messages)), page.Total
			break
		}
		if err != nil {
			break
		}
		out.Stored, out.Total = p.Stored, p.Total
		progress(p)
		if done {
			break
		}
	}
	out.Seconds = time.Since(start).Seconds()
	// The account as it was when its last call settled (as list reports
	// it): its state, and the class of the error that ended the sync.
	h := accounts.HealthOf(a, a.Status(), err, time.Now())
	out.State = string(h.State)
	if err != nil {
		out.Error, out.ErrorClass = h.Error, h.ErrorClass
	}
	return out
}

// progress draws every account's sync on one line of a terminal's stderr,
// at most ten times a second; it says nothing to a pipe or a file.
type progress struct {
	mu    sync.Mutex
	w     io.Writer // nil: not a terminal
	names []string
	at    []accounts.SyncProgress
	drawn time.Time
}

func newProgress(stderr io.Writer, names []string) *progress {
	p := &progress{at: make([]accounts.SyncProgress, len(names)), names: names}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(f.Fd()) {
		p.w = stderr
	}
	return p
}

func (p *progress) set(i int, at accounts.SyncProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.at[i] = at
	if p.w == nil || time.Since(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = time.Now()
	var parts []string
	for j, n := range p.names {
		parts = append(parts, fmt.Sprintf("%s %d/%d", n, p.at[j].Stored, p.at[j].Total))
	}
	fmt.Fprintf(p.w, "\r\x1b[Ksyncing %s", strings.Join(parts, " · "))
}

// done clears the progress line.
func (p *progress) done() {
	if p.w != nil && !p.drawn.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

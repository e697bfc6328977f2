package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"unibox/accounts"
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
	results := accounts.Fanout(context.Background(), accts, f.timeout, func(ctx context.Context, a *accounts.Account) (time.Duration, error) {
		start := time.Now()
		// Refresh connects (spawn + handshake + add_account) and probes.
		err := a.Refresh(ctx)
		return time.Since(start), err
	})
	var out []StatusJSON
	ok := 0
	for _, r := range results {
		h := accounts.Settled(r)
		// A probe that answered reports no error, whatever the connection
		// went through before it.
		sj := StatusJSON{AccountRef: jsonview.AccountRef{Name: h.Name, State: string(h.State)}, ErrorClass: h.ErrorClass,
			Error: h.LastError, Connects: h.Connects}
		if h.OK {
			ok++
			sj.LatencyMS = r.Value.Milliseconds()
		} else {
			sj.Error = h.Error
		}
		out = append(out, sj)
	}
	printAccounts(stdout, f.json, out, "ACCOUNT\tSTATE\tLATENCY\tCLASS\tERROR", func(s StatusJSON) string {
		return fmt.Sprintf("%s\t%s\t%dms\t%s\t%s", textsafe.Line(s.Name), s.State, s.LatencyMS, s.ErrorClass, clip(s.Error, 80))
	})
	return exitCode(ok, len(results))
}

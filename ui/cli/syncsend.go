package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model/textsafe"
	"unibox/ui/launch"
)

// syncOutbox is the sending half of `unibox sync`: what waits in the
// outbox for these accounts and is due goes now, each message once,
// through the Mailroom every sending face opens (for a cron job, or
// before going offline, as the mail is brought in). Failed and unknown
// entries wait for a person (the TUI's drafts view); one not due yet
// waits its time. It says on stderr what it sent or could not: stdout
// is sync's report. Trouble here does not change sync's exit code.
func syncOutbox(env *launch.Env, accts []*accounts.Account, timeout time.Duration, stderr io.Writer) {
	room, err := env.OpenMailroom(accts, dispatch.Options{StepTimeout: timeout})
	if err != nil {
		fmt.Fprintf(stderr, "unibox sync: the outbox: %v\n", err)
		return
	}
	changed, err := room.Recover()
	if err != nil {
		fmt.Fprintf(stderr, "unibox sync: %v\n", err)
		return
	}
	for _, e := range changed {
		if e.State == outbox.StateUnknown {
			fmt.Fprintf(stderr, "unibox sync: <%s>, from a unibox stopped while sending it, may have been sent: check Sent\n", textsafe.Line(e.MessageID))
		}
	}
	reps, err := room.Runner.DeliverDue(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "unibox sync: the outbox: %v\n", err)
	}
	for _, r := range reps {
		id, why := "<"+textsafe.Line(r.Entry.MessageID)+">", textsafe.Line(r.Entry.LastError)
		switch {
		case r.Outcome == dispatch.OutcomeSent:
			fmt.Fprintf(stderr, "unibox sync: sent %s from the outbox\n", id)
		case r.Outcome == dispatch.OutcomeUnknown:
			fmt.Fprintf(stderr, "unibox sync: %s may have been sent: check Sent (%s)\n", id, why)
		case r.Entry.State == outbox.StateQueued:
			fmt.Fprintf(stderr, "unibox sync: %s not sent, it waits in the outbox for a later try: %s\n", id, why)
		default:
			fmt.Fprintf(stderr, "unibox sync: %s not sent: %s\n", id, why)
		}
	}
}

package teatest

import (
	"testing"
	"time"

	"unibox/ui/tui"
)

// [compose] abort_unmodified (mutt's): a reply the editor leaves as it
// was written is discarded with a note, not reviewed; off, the review
// comes as before. A forward left as written is still reviewed (the
// first edit only counts: ui/tui/compose/TestAbortUnmodifiedOnlyTheFirstEdit).
func TestAbortUnmodified(t *testing.T) {
	for _, tc := range []struct {
		name    string
		abort   bool
		key     string
		discard bool
	}{
		{"reply, on", true, "r", true},
		{"reply, off", false, "r", false},
		{"forward, on", true, "F", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, box := lunchWriter(t)
			room := &tui.Mailroom{Box: box, Editor: "true", SendDelay: 10 * time.Second, AbortUnmodified: tc.abort}
			tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
			waitFor(t, tm, "lunch?")
			tm.Send(key("enter"))
			waitFor(t, tm, "Noon at the usual place?")
			tm.Send(key(tc.key))
			if tc.key == "F" {
				waitFor(t, tm, "esc cancel") // To: first; the editor gets it empty
				tm.Send(key("enter"))
			}
			if tc.discard {
				waitFor(t, tm, "not changed: discarded")
			} else {
				waitFor(t, tm, "review · y send")
			}
			final(t, tm)
			ds, err := box.Drafts()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(ds) == 0; got != tc.discard {
				t.Fatalf("drafts left %d, want discarded %v", len(ds), tc.discard)
			}
		})
	}
}

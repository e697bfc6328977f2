package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/jsonview"
)

// ThreadJSON is one conversation in `list --threads --json` (public
// names): its id, how many of the listed messages are in it and how many
// unread, whether any is flagged, its accounts and people, its newest
// subject and date, and its messages' ids, oldest first.
type ThreadJSON struct {
	ThreadID string   `json:"thread_id"`
	Count    int      `json:"count"`
	Unread   int      `json:"unread"`
	Flagged  bool     `json:"flagged"`
	Accounts []string `json:"accounts"`
	People   []string `json:"people"`
	Subject  string   `json:"subject"`
	Date     string   `json:"date"`
	IDs      []string `json:"ids"`
}

// ThreadsJSON is `list --threads --json`: the accounts as `list` gives
// them, and the conversations newest first.
type ThreadsJSON struct {
	Accounts []AccountJSON `json:"accounts"`
	Threads  []ThreadJSON  `json:"threads"`
}

// conversations groups a listing's messages by thread (model.ThreadRows,
// as the TUI's thread view does).
func conversations(out ListJSON) ThreadsJSON {
	rows := make([]model.Row, 0, len(out.Messages))
	for _, m := range out.Messages {
		id, err := model.ParseMessageID(m.ID)
		if err != nil {
			continue
		}
		d, _ := time.Parse(time.RFC3339, m.Date)
		rows = append(rows, model.Row{Message: model.Message{ID: id, From: m.From, Subject: m.Subject, Date: d,
			Seen: m.Seen, Flagged: m.Flagged, ThreadID: m.ThreadID}})
	}
	th := ThreadsJSON{Accounts: out.Accounts, Threads: []ThreadJSON{}}
	for _, r := range model.ThreadRows(rows, nil, nil) {
		c := r.Thread
		t := ThreadJSON{ThreadID: r.ThreadID, Count: c.Count, Unread: c.Unread, Flagged: c.Flagged, Accounts: c.Accounts,
			People: c.People, Subject: r.Subject, Date: jsonview.Date(r.Date), IDs: []string{}}
		for _, id := range c.Members {
			t.IDs = append(t.IDs, id.String())
		}
		th.Threads = append(th.Threads, t)
	}
	return th
}

func printThreads(w io.Writer, th ThreadsJSON) {
	tw := newTable(w)
	fmt.Fprintln(tw, "DATE\tACCOUNTS\tMESSAGES\tFLAGS\tPEOPLE\tSUBJECT")
	for _, t := range th.Threads {
		flags := ""
		if t.Unread > 0 {
			flags += "•"
		}
		if t.Flagged {
			flags += "!"
		}
		date := t.Date
		if d, err := time.Parse(time.RFC3339, t.Date); err == nil {
			date = d.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", date, textsafe.Line(strings.Join(t.Accounts, ",")), t.Count, flags,
			clip(strings.Join(t.People, ", "), 30), clip(t.Subject, 60))
	}
	tw.Flush()
}

package thread

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"unibox/model"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// in is a message in account A's INBOX with uid n, dated n minutes after
// t0: id, In-Reply-To, then References.
func in(n uint32, id, irt string, refs ...string) Message {
	return at("A", "INBOX", n, id, irt, refs...)
}

func at(acct, folder string, n uint32, id, irt string, refs ...string) Message {
	return Message{
		Key:        model.MessageID{Account: acct, Folder: folder, UIDValidity: 1, UID: n},
		Subject:    "Lunch", // one conversation: links join only within a subject
		MessageID:  id,
		InReplyTo:  irt,
		References: refs,
		Date:       t0.Add(time.Duration(n) * time.Minute),
	}
}

// build adds msgs in order and returns the Threader.
func build(opts Options, msgs []Message) *Threader {
	th := New(opts)
	for _, m := range msgs {
		th.Add(m)
	}
	return th
}

// partition is the thread id of each message, by its position.
func partition(t *testing.T, th *Threader, msgs []Message) []string {
	t.Helper()
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		tid, ok := th.ThreadOf(m.Key)
		if !ok {
			t.Fatalf("message %d (%v) lost", i, m.Key)
		}
		ids[i] = tid
	}
	return ids
}

// groups renders a partition as "0 1 2 | 3" (positions sharing a thread,
// groups in order of their first member), for readable expectations.
func groups(tids []string) string {
	var order []string
	members := map[string][]string{}
	for i, tid := range tids {
		if _, ok := members[tid]; !ok {
			order = append(order, tid)
		}
		members[tid] = append(members[tid], fmt.Sprint(i))
	}
	var parts []string
	for _, tid := range order {
		parts = append(parts, strings.Join(members[tid], " "))
	}
	return strings.Join(parts, " | ")
}

func timeMinutes(n int) time.Duration { return time.Duration(n) * time.Minute }

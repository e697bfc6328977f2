package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func triageInbox() (*Inbox, *Triage, []Message) {
	in := NewInbox([]string{"Work", "Yahoo"})
	w := []Message{msg("Work", 3, time.Hour, false), msg("Work", 2, 2*time.Hour, false), msg("Work", 1, 3*time.Hour, true)}
	in.Replace("Work", w, false)
	in.Replace("Yahoo", []Message{msg("Yahoo", 9, 90*time.Minute, false)}, false)
	return in, NewTriage(in), w
}

func TestIntentOutcomes(t *testing.T) {
	archive := Op{Action: ActArchive}
	read := Op{Action: ActSetSeen, Value: true}
	dest := func(uid uint32) MessageID { return MessageID{"Work", "Archive", 5, uid} }
	for _, tc := range []struct {
		name      string
		op        Op
		results   func(uids []uint32) []ItemResult
		wantRows  string // Work rows after settling
		wantState []ItemState
		wantDone  int
	}{
		{"confirmed archive", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultDone, Dest: dest(50)}, {UID: u[1], Kind: ResultDone, Dest: dest(51)}}
		}, "[Work 1]", []ItemState{ItemConfirmed, ItemConfirmed}, 2},
		{"failed archive rolls back", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultFailed, Err: "NO [TRYCREATE]"}, {UID: u[1], Kind: ResultDone, Dest: dest(51)}}
		}, "[Work 3 Work 1]", []ItemState{ItemFailed, ItemConfirmed}, 1},
		{"missing answer is not done", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[1], Kind: ResultDone}}
		}, "[Work 3 Work 1]", []ItemState{ItemFailed, ItemConfirmed}, 1},
		{"unknown reconciled as done", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultDone, Reconciled: true}, {UID: u[1], Kind: ResultDone}}
		}, "[Work 1]", []ItemState{ItemReconciled, ItemConfirmed}, 2},
		{"unknown reconciled as not done", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultFailed, Reconciled: true, Err: "still in INBOX"}, {UID: u[1], Kind: ResultDone}}
		}, "[Work 3 Work 1]", []ItemState{ItemReconciled, ItemConfirmed}, 1},
		{"already gone", archive, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultGone}, {UID: u[1], Kind: ResultGone}}
		}, "[Work 1]", []ItemState{ItemConfirmed, ItemConfirmed}, 2},
		{"read confirmed", read, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultDone}, {UID: u[1], Kind: ResultDone}}
		}, "[Work 3 Work 2 Work 1]", []ItemState{ItemConfirmed, ItemConfirmed}, 2},
		{"read failed reverts the flag", read, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultFailed}, {UID: u[1], Kind: ResultDone}}
		}, "[Work 3 Work 2 Work 1]", []ItemState{ItemFailed, ItemConfirmed}, 1},
		{"still unknown stays open", read, func(u []uint32) []ItemResult {
			return []ItemResult{{UID: u[0], Kind: ResultUnknown}, {UID: u[1], Kind: ResultDone}}
		}, "[Work 3 Work 2 Work 1]", []ItemState{ItemUnknown, ItemConfirmed}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inbox, tr, w := triageInbox()
			in := tr.Begin(tr.Group(), "Work", "INBOX", tc.op, w[:2])
			if tc.op.Removes() && inbox.Len() != 2 {
				t.Fatalf("optimistic removal: %d rows", inbox.Len())
			}
			if err := tr.Settle(in.ID, tc.results([]uint32{w[0].ID.UID, w[1].ID.UID})); err != nil {
				t.Fatal(err)
			}
			var work []Row
			for _, r := range inbox.Rows() {
				if r.ID.Account == "Work" {
					work = append(work, r)
				}
			}
			if got := fmt.Sprint(subjects(work)); got != tc.wantRows {
				t.Errorf("rows %s, want %s", got, tc.wantRows)
			}
			for i, want := range tc.wantState {
				if in.Items[i].State != want {
					t.Errorf("item %d: %s, want %s", i, in.Items[i].State, want)
				}
			}
			if done, _, _ := in.Counts(); done != tc.wantDone {
				t.Errorf("done %d, want %d", done, tc.wantDone)
			}
			if tc.op.Action == ActSetSeen {
				r, _ := inbox.Find(w[0].ID)
				wantSeen := in.Items[0].Done || in.Items[0].State == ItemUnknown
				if r.Seen != wantSeen {
					t.Errorf("first row seen=%v, want %v (rolled back iff failed)", r.Seen, wantSeen)
				}
			}
		})
	}
}

func TestFailRollsBackEverything(t *testing.T) {
	inbox, tr, w := triageInbox()
	in := tr.Begin(tr.Group(), "Work", "INBOX", Op{Action: ActTrash}, w)
	tr.Fail(in.ID, "Work: cooling down, 12s left")
	if inbox.Len() != 4 {
		t.Fatalf("rows %d, want all 4 back", inbox.Len())
	}
	for _, it := range in.Items {
		if it.State != ItemFailed || it.Err == "" {
			t.Fatalf("item %+v", it)
		}
	}
	if _, _, err := tr.UndoPlan(); err == nil {
		t.Fatal("a failed action went on the undo history")
	}
}

func TestStateMachineRefusesBadTransitions(t *testing.T) {
	in := &Intent{Items: []Item{{State: ItemConfirmed}, {State: ItemReconciled}, {State: ItemFailed}}}
	for i := range in.Items {
		for _, to := range []ItemState{ItemPending, ItemConfirmed, ItemUnknown} {
			if err := in.setState(i, to); err == nil {
				t.Errorf("%s → %s accepted", in.Items[i].State, to)
			}
		}
	}
}

func TestUndoArchiveMovesBackByDestUID(t *testing.T) {
	inbox, tr, w := triageInbox()
	g := tr.Group()
	in := tr.Begin(g, "Work", "INBOX", Op{Action: ActArchive}, w[:2])
	dest := []MessageID{{"Work", "Archive", 5, 50}, {"Work", "Archive", 5, 0}}
	tr.Settle(in.ID, []ItemResult{{UID: w[0].ID.UID, Kind: ResultDone, Dest: dest[0]}, {UID: w[1].ID.UID, Kind: ResultDone, Dest: dest[1]}})
	steps, cannot, err := tr.UndoPlan()
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 1 || steps[0].Folder != "Archive" || steps[0].Op != (Op{Action: ActMove, To: "INBOX"}) || steps[0].Msgs[0].ID != dest[0] {
		t.Fatalf("plan %+v", steps)
	}
	if len(cannot) != 1 || !strings.Contains(cannot[0], "did not say where it went") {
		t.Fatalf("cannot %v", cannot)
	}
	u := tr.BeginUndo(tr.Group(), steps[0])
	if _, ok := inbox.Find(w[0].ID); !ok {
		t.Fatal("undo did not bring the row back at once")
	}
	back := MessageID{"Work", "INBOX", 7, 77}
	tr.Settle(u.ID, []ItemResult{{UID: 50, Kind: ResultDone, Dest: back}})
	if _, ok := inbox.Find(back); !ok {
		t.Fatal("the restored row is not addressed by its new uid")
	}
	if _, _, err := tr.UndoPlan(); err == nil {
		t.Fatal("undo of undo: nothing left to undo expected")
	}
}

func TestUndoFailedPutsItBack(t *testing.T) {
	inbox, tr, w := triageInbox()
	in := tr.Begin(tr.Group(), "Work", "INBOX", Op{Action: ActArchive}, w[:1])
	tr.Settle(in.ID, []ItemResult{{UID: w[0].ID.UID, Kind: ResultDone, Dest: MessageID{"Work", "Archive", 5, 50}}})
	steps, _, _ := tr.UndoPlan()
	u := tr.BeginUndo(tr.Group(), steps[0])
	tr.Fail(u.ID, "Work: cooling down")
	if _, ok := inbox.Find(w[0].ID); ok {
		t.Fatal("a failed undo left the message shown in INBOX")
	}
}

func TestUndoReadChange(t *testing.T) {
	inbox, tr, w := triageInbox()
	in := tr.Begin(tr.Group(), "Work", "INBOX", Op{Action: ActSetSeen, Value: true}, []Message{w[0], w[2]})
	tr.Settle(in.ID, []ItemResult{{UID: w[0].ID.UID, Kind: ResultDone}, {UID: w[2].ID.UID, Kind: ResultDone}})
	steps, _, err := tr.UndoPlan()
	if err != nil {
		t.Fatal(err)
	}
	// w[0] was unread, w[2] already read: one step sets unread, one sets read.
	if len(steps) != 2 {
		t.Fatalf("steps %+v", steps)
	}
	for _, s := range steps {
		tr.BeginUndo(tr.Group(), s)
	}
	if r, _ := inbox.Find(w[0].ID); r.Seen {
		t.Fatal("undo did not mark it unread again")
	}
}

func TestDecide(t *testing.T) {
	archive := Op{Action: ActArchive}
	read := Op{Action: ActSetSeen, Value: true}
	for _, tc := range []struct {
		name string
		op   Op
		obs  Observation
		want Decision
	}{
		{"moved: gone from source", archive, Observation{InSource: false}, DecideDone},
		{"copied, original remains: never resend", archive, Observation{InSource: true, InTarget: true, TargetChecked: true}, DecideDoneDup},
		{"provably not moved", archive, Observation{InSource: true, TargetChecked: true}, DecideResend},
		{"target could not be searched: unknown, never resent", archive, Observation{InSource: true}, DecideUnknown},
		{"flag set", read, Observation{InSource: true, Source: Message{Seen: true}}, DecideDone},
		{"flag not set", read, Observation{InSource: true, Source: Message{Seen: false}}, DecideResend},
		{"message vanished", read, Observation{InSource: false}, DecideGone},
		{"unflag done", Op{Action: ActSetFlagged, Value: false}, Observation{InSource: true}, DecideDone},
	} {
		if got := Decide(tc.op, tc.obs); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A listing that was in flight when an archive began brings the row back;
// the open intent is applied again, and its confirmation removes it.
func TestReapplyAfterStaleListing(t *testing.T) {
	inbox, tr, w := triageInbox()
	in := tr.Begin(tr.Group(), "Work", "INBOX", Op{Action: ActArchive}, w[:1])
	inbox.Replace("Work", w, false) // the stale page still has it
	tr.Reapply()
	if _, ok := inbox.Find(w[0].ID); ok {
		t.Fatal("a stale listing undid the archive on screen")
	}
	inbox.Replace("Work", w, false)
	tr.Settle(in.ID, []ItemResult{{UID: w[0].ID.UID, Kind: ResultDone}})
	if _, ok := inbox.Find(w[0].ID); ok {
		t.Fatal("a confirmed archive left the row on screen")
	}
}

func TestHistoryIsBounded(t *testing.T) {
	_, tr, w := triageInbox()
	for range historyLimit + 20 {
		in := tr.Begin(tr.Group(), "Work", "INBOX", Op{Action: ActSetFlagged, Value: true}, w[:1])
		tr.Settle(in.ID, []ItemResult{{UID: w[0].ID.UID, Kind: ResultDone}})
	}
	if len(tr.history) != historyLimit || len(tr.intents) != historyLimit {
		t.Fatalf("history %d intents %d, want %d", len(tr.history), len(tr.intents), historyLimit)
	}
}

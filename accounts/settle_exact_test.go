package accounts

import (
	"context"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// subjects is folder's messages by subject → uid, as a listing sees them.
func subjects(t *testing.T, a *Account, folder string) map[string]uint32 {
	t.Helper()
	out := map[string]uint32{}
	for _, m := range count(t, a, folder) {
		out[m.Subject] = m.ID.UID
	}
	return out
}

// A move whose answer is lost is settled by looking its Message-ID up in
// the destination; the uid found there is the one undo moves back. A
// newer <x-t@corp.example.evil> arriving there meanwhile (higher uid)
// contains <t@corp.example>: the settle took it for the moved message,
// and undo brought back the stranger's mail instead of ours. The drop
// needs the in-process server's faults (a MOVE carried out, its answer
// lost).
func TestUnknownMoveSettlesOnTheExactMessage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		op     model.Op
		folder string
	}{
		{"archive", model.Op{Action: model.ActArchive}, "Archive"},
		{"trash", model.Op{Action: model.ActTrash}, "Trash"},
		{"move", model.Op{Action: model.ActMove, To: "Archive"}, "Archive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			faults := &memimap.Faults{}
			a, srv, user := oneAccount(t, faults, memimap.Options{})
			seedOne(t, srv, user, "ours", realID)
			inbox := count(t, a, "INBOX")
			faults.OnDrop = func() {
				raw := imaptest.Mail{From: "x@corp.example.evil", Subject: "theirs", Date: time.Now(), MessageID: decoyID, Body: "x"}.Bytes()
				if _, err := srv.Append(user, tc.folder, raw, nil, time.Now()); err != nil {
					t.Error(err)
				}
			}
			faults.DropAfter("MOVE", 1)
			res, err := a.Apply(ctx, tc.op, "INBOX", inbox[0].ID.UIDValidity, inbox)
			if err != nil {
				t.Fatal(err)
			}
			there := subjects(t, a, tc.folder)
			if r := res[0]; r.Kind != model.ResultDone || !r.Reconciled || r.Dest.Folder != tc.folder || r.Dest.UID != there["ours"] {
				t.Fatalf("settled as %+v; %s holds %v", r, tc.folder, there)
			}
			// Undo moves back what the settle found (model.UndoPlan).
			back := inbox[0]
			back.ID = res[0].Dest
			undo, err := a.Apply(ctx, model.Op{Action: model.ActMove, To: "INBOX"}, tc.folder, back.ID.UIDValidity, []model.Message{back})
			if err != nil || undo[0].Kind != model.ResultDone {
				t.Fatalf("undo: %+v %v", undo, err)
			}
			if in, left := subjects(t, a, "INBOX"), subjects(t, a, tc.folder); len(in) != 1 || in["ours"] == 0 || len(left) != 1 || left["theirs"] == 0 {
				t.Fatalf("after the undo INBOX holds %v, %s holds %v", in, tc.folder, left)
			}
		})
	}
}

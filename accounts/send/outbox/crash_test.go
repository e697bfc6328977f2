package outbox

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashText is the text every crash child writes, so the parent knows
// what must survive.
func crashText() []byte {
	return []byte("From: Alice <alice@example.org>\nTo: bob@example.org\nSubject: Re: lunch\n\nYes, at noon.\n\n> lunch?\n")
}

var crashOrig = &Ref{Account: "work", Folder: "INBOX", UIDValidity: 7, UID: 42, MessageID: "<lunch@example.org>"}

// crashAt goes through sending one reply as unibox does and stops, to be
// killed, after step: "draft", "enqueue", "sending" or "sent".
func crashAt(b *Box, step string) error {
	d, err := b.NewDraft("work", "reply", crashOrig, crashText())
	if err != nil || step == "draft" {
		return errors.Join(err, blockUntilKilled("draft "+d.ID))
	}
	e, err := b.Enqueue(Entry{Account: "work", MessageID: "<reply@example.org>", DraftID: d.ID,
		Rcpt: []string{"bob@example.org"}, From: "alice@example.org", Original: crashOrig, Flag: "answered"},
		append([]byte("Message-ID: <reply@example.org>\r\n"), crashText()...), crashText())
	if err != nil || step == "enqueue" {
		return errors.Join(err, blockUntilKilled("enqueue "+d.ID+" "+e.ID))
	}
	c, err := b.Claim(e.ID)
	if err != nil {
		return err
	}
	if err := c.Mark(StateSending, nil); err != nil || step == "sending" {
		return errors.Join(err, blockUntilKilled("sending "+d.ID+" "+e.ID))
	}
	if err := c.Mark(StateSent, nil); err != nil {
		return err
	}
	return blockUntilKilled("sent " + d.ID + " " + e.ID)
}

// A kill -9 after each step of sending leaves the text on disk, whole,
// and the entry where a restart handles it right: queued goes out, a
// message that may have left (sending) becomes unknown and is never due,
// a sent one stays for the Sent copy and the flag. The draft stays until
// the entry is done.
func TestKilledAtEachStepOfSending(t *testing.T) {
	for _, tt := range []struct {
		step      string
		state     State // the entry after Recover ("" : none)
		recovered bool  // Recover reports it
		due       bool
	}{
		{"draft", "", false, false},
		{"enqueue", StateQueued, false, true},
		{"sending", StateUnknown, true, false},
		{"sent", StateSent, false, false},
	} {
		t.Run(tt.step, func(t *testing.T) {
			root := t.TempDir()
			c := startChild(t, "crash", root, tt.step)
			ids := strings.Fields(c.line(t))
			c.kill9(t)
			if ids[0] != tt.step {
				t.Fatalf("child reached %q, want %q", ids[0], tt.step)
			}
			b, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			changed, err := b.Recover()
			if err != nil {
				t.Fatal(err)
			}
			d, text, err := b.Draft(ids[1])
			if err != nil || !bytes.Equal(text, crashText()) || d.Account != "work" || *d.Original != *crashOrig {
				t.Fatalf("draft after the kill: %+v %q %v", d, text, err)
			}
			all, err := b.Entries()
			if err != nil {
				t.Fatal(err)
			}
			if tt.state == "" {
				if len(all) != 0 {
					t.Fatalf("entries %+v, want none", all)
				}
				return
			}
			if len(all) != 1 || all[0].ID != ids[2] || all[0].State != tt.state || all[0].Err != nil {
				t.Fatalf("entries %+v, want %s %s", all, ids[2], tt.state)
			}
			if got := len(changed) == 1 && changed[0].State == StateUnknown; got != tt.recovered {
				t.Errorf("Recover said %+v", changed)
			}
			if due, _ := b.Due(time.Now()); (len(due) == 1) != tt.due {
				t.Errorf("due %+v, want due %v", due, tt.due)
			}
			cl, err := b.Claim(ids[2]) // the dead child's lock is free
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Release()
			if saved, err := cl.Saved(); err != nil || !bytes.Equal(saved, crashText()) {
				t.Fatalf("saved body %q %v", saved, err)
			}
		})
	}
}

// churnDraft saves draft id over and over, two texts in turn, until it is
// killed.
func churnDraft(b *Box, id string) error {
	d, _, err := b.Draft(id)
	if err != nil {
		return err
	}
	texts := [][]byte{churnText(0), churnText(1)}
	for i := 0; ; i++ {
		if err := b.SaveDraft(d, texts[i%2]); err != nil {
			return err
		}
		if i == 1 {
			fmt.Println("saving")
		}
	}
}

// churnText is a text large enough (4 MiB) that a kill lands inside its
// write, not between writes.
func churnText(n int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("line of text number %d, version %d\n", n, n)), 4<<20/34)
}

// A kill -9 in the middle of saving a draft leaves one of the texts
// saved, whole, never half of one: each save is a write to a temp file
// and a rename. The temp file the kill left is skipped by listings and
// cleared by the next Open once no writer holds it.
func TestKilledWhileSavingDraft(t *testing.T) {
	root := t.TempDir()
	b, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.NewDraft("work", "new", nil, churnText(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		c := startChild(t, "churn", root, d.ID)
		c.line(t)
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
		c.kill9(t)
		_, text, err := b.Draft(d.ID)
		if err != nil || !bytes.Equal(text, churnText(0)) && !bytes.Equal(text, churnText(1)) {
			t.Fatalf("kill %d: the draft holds %d bytes (%.40q...), %v: want one whole text", i, len(text), text, err)
		}
		if list, err := b.Drafts(); err != nil || len(list) != 1 || list[0].Err != nil {
			t.Fatalf("kill %d: drafts %+v %v", i, list, err)
		}
	}
	// Make any temp file old, and one more held by a live writer: only
	// the ones no one holds go.
	held, err := os.OpenFile(filepath.Join(root, "drafts", tempPrefix+"held"), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := flockNB(held); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"drafts", "outbox"} { // as a kill mid-write leaves them
		if err := os.WriteFile(filepath.Join(root, dir, tempPrefix+"cut-short"), []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	temps, _ := filepath.Glob(filepath.Join(root, "*", tempPrefix+"*"))
	for _, p := range temps {
		os.Chtimes(p, old, old)
	}
	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(root, "*", tempPrefix+"*"))
	if len(left) != 1 || filepath.Base(left[0]) != tempPrefix+"held" {
		t.Fatalf("temp files after Open: %v (there were %v): want only the held one", left, temps)
	}
}

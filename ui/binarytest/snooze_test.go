package binarytest

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/history"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// The bar, with the real binary: a message snoozed until now+5 s
// (by `unibox mcp`'s snooze) stays in Snoozed through a `unibox sync`
// before its time, and returns to INBOX, unread, exactly once, when two
// `unibox sync` processes run at once after it (and the agent face lists
// the inbox meanwhile: three processes race for the one wake). Once: one
// copy in INBOX, none left in Snoozed, and one "woke" line in the shared
// history, none "dropped". On memimap the first sync's MOVE is held
// until the second sync has run whole: the second must leave the wake to
// the first (its claim), not move the message too.
func TestSnoozeWakesOnceWithTwoProcesses(t *testing.T) {
	t.Run("memimap", func(t *testing.T) {
		faults := &memimap.Faults{}
		snoozeWakesOnce(t, imaptest.NewMem(t, memimap.Options{Faults: faults}), func() *memimap.Hold { return faults.HoldNext("MOVE") })
	})
	t.Run("dovecot", func(t *testing.T) { snoozeWakesOnce(t, imaptest.StartDovecot(t), nil) }) // a private one: no user shared with other packages
}

func snoozeWakesOnce(t *testing.T, srv imaptest.Backend, holdMove func() *memimap.Hold) {
	bin := buildUnibox(t)
	user, pass := srv.NewUser(t)
	const mid = "snooze-me@unibox.test"
	srv.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.com>", Subject: "wake me", Date: time.Now(), MessageID: mid, Body: "x"}.Bytes(), imap.FlagSeen)
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAPAs("Work", user, srv.Port(), facetest.Env("PW")))
	env := []string{"PW=" + pass, "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"),
		"XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME")}
	cmd := exec.Command(bin, "mcp", "--config", path)
	cmd.Env = env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 1 {
		t.Fatalf("list: %+v", list.Messages)
	}
	until := time.Now().Add(5 * time.Second)
	var w agent.WriteOut
	facetest.Call(t, cs, "snooze", agent.SnoozeIn{IDs: []string{list.Messages[0].ID}, Until: until.Format(time.RFC3339Nano)}, &w)
	if len(w.Outcomes) != 1 || w.Outcomes[0].Status != "done" {
		t.Fatalf("snooze: %+v", w.Outcomes)
	}
	where := func() (inbox, snoozed int, seen bool) {
		c := srv.Client(t, user)
		defer c.Close()
		for _, f := range []string{"INBOX", "Snoozed"} {
			if _, err := c.Select(f, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
				t.Fatal(err)
			}
			res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-Id", Value: mid}}}, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			uids := res.AllUIDs()
			if f == "INBOX" {
				inbox = len(uids)
				if len(uids) == 1 {
					msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{Flags: true}).Collect()
					if err != nil || len(msgs) != 1 {
						t.Fatalf("fetch flags: %v", err)
					}
					for _, fl := range msgs[0].Flags {
						seen = seen || fl == imap.FlagSeen
					}
				}
			} else {
				snoozed = len(uids)
			}
		}
		return
	}
	runSync := func() string {
		out, err := exec.Command(bin, "sync", "--config", path).CombinedOutput()
		if err != nil {
			return err.Error() + "\n" + string(out)
		}
		return ""
	}
	cmdEnv(t, env)
	if msg := runSync(); msg != "" {
		t.Fatalf("sync before the time: %s", msg)
	}
	if in, sn, _ := where(); in != 0 || sn != 1 {
		t.Fatalf("before its time: %d in INBOX, %d in Snoozed", in, sn)
	}
	time.Sleep(time.Until(until) + 50*time.Millisecond) // the wake time itself
	if holdMove != nil {
		h := holdMove()
		first := exec.Command(bin, "sync", "--config", path)
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-h.Held:
		case <-time.After(30 * time.Second):
			first.Process.Kill()
			first.Wait()
			t.Fatal("the first sync never sent its MOVE")
		}
		if msg := runSync(); msg != "" {
			t.Fatalf("the second sync: %s", msg)
		}
		if in, sn, _ := where(); in != 0 || sn != 1 {
			t.Fatalf("the second sync moved it while the first held the wake: %d in INBOX, %d in Snoozed", in, sn)
		}
		h.Release(true)
		if err := first.Wait(); err != nil {
			t.Fatalf("the first sync: %v", err)
		}
	}
	var wg sync.WaitGroup
	fails := make(chan string, 3)
	for range 2 {
		wg.Go(func() { fails <- runSync() })
	}
	wg.Go(func() {
		var l agent.ListOut
		facetest.Call(t, cs, "list_messages", agent.ListIn{}, &l)
		fails <- ""
	})
	wg.Wait()
	close(fails)
	for f := range fails {
		if f != "" {
			t.Fatalf("a sync failed: %s", f)
		}
	}
	in, sn, seen := where()
	if in != 1 || sn != 0 || seen {
		t.Fatalf("after the wake: %d in INBOX (want 1), %d in Snoozed (want 0), seen %v (want unread)", in, sn, seen)
	}
	woke, dropped := 0, 0
	f, err := os.Open(filepath.Join(os.Getenv("XDG_STATE_HOME"), "unibox", history.FileName("Work")))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if !strings.Contains(line, `"kind":"snooze"`) {
			continue
		}
		woke += strings.Count(line, `woke \"wake me\"`)
		dropped += strings.Count(line, "dropped")
	}
	if woke != 1 || dropped != 0 {
		t.Fatalf("history: %d woke, %d dropped lines; want exactly one wake", woke, dropped)
	}
}

// cmdEnv makes exec.Command children (the syncs) see only env's
// variables that matter: the same data, state and cache folders as the
// agent face.
func cmdEnv(t *testing.T, env []string) {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

package accounts

import (
	"context"
	"testing"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/testservers/memimap"
)

// A push says in the account's history which folder changed: the IMAP
// provider reads the folder from its own notification's uri
// (provider.Spec.PushFolder), so the account, which never reads a wire
// format, still names it ("INBOX changed on the server", not the uri).
func TestPushNamesItsFolderInTheHistory(t *testing.T) {
	a, srv, user := oneAccount(t, nil, memimap.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	// The push watch connects on its own schedule after the first call;
	// a message appended before it idles is no push.
	deadline := time.Now().Add(20 * time.Second)
	for srv.Idles() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the push watch never began IDLE")
		}
		time.Sleep(5 * time.Millisecond)
	}
	seedOne(t, srv, user, "pushed", "pushed.1@unibox.test")
	select {
	case <-a.Watching().Pushes(): // the event is recorded before the push is delivered
	case <-ctx.Done():
		t.Fatal("no push after new mail")
	}
	const want = "INBOX changed on the server"
	pushes := 0
	for _, e := range a.History(100) {
		if e.Kind != history.KindPush {
			continue
		}
		if pushes++; e.Text != want {
			t.Errorf("push event says %q, want %q", e.Text, want)
		}
	}
	if pushes == 0 {
		t.Fatal("no push event in the history")
	}
}

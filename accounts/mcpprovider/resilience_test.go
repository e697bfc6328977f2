package mcpprovider

import (
	"errors"
	"strings"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// A child that dies in the middle of a list is replaced and the read
// retried once, transparently; the new child gets a fresh secret.
func TestDropMidListRetried(t *testing.T) {
	for _, profile := range []string{"email-mcp", "mcp-mail-server"} {
		t.Run(profile, func(t *testing.T) {
			w := newWorld(t, profile, nil)
			w.seed(inbox()...)
			tool := map[string]string{"email-mcp": "list_emails", "mcp-mail-server": "get_recent_messages"}[profile]
			w.set("die-"+tool, "", true)
			pg, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{})
			if err != nil || len(pg.Messages) != 3 {
				t.Fatalf("list across a drop: %v %+v", err, pg)
			}
			st := w.a.Status()
			if st.Dials != 2 || st.Connects != 2 || w.calls(tool) != 2 || len(w.pids()) != 2 {
				t.Fatalf("want one retry on a second child: %+v, %d calls", st, w.calls(tool))
			}
			if w.fetches != 2 {
				t.Fatalf("the secret was fetched %d times for 2 dials", w.fetches)
			}
			waitGone(t, w.pids()[0])
		})
	}
}

// A child that dies with a write in flight: that write's outcome is
// unknown, the rest were never sent, and nothing is sent twice.
func TestDropMidWriteUnknown(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	w.seed(inbox()...)
	w.set("die-mark_email", "", true)
	res, err := w.spec.Provider.Write(t.Context(), w.a, model.Op{Action: model.ActSetSeen, Value: true}, "INBOX", 0, []uint32{1, 3})
	if err != nil || len(res) != 2 {
		t.Fatalf("write across a drop: %v %+v", err, res)
	}
	if res[0].UID != 1 || res[0].Kind != model.ResultUnknown || res[0].Err == "" {
		t.Fatalf("the cut-off write: %+v", res[0])
	}
	if res[1].UID != 3 || res[1].Kind != model.ResultFailed || !strings.HasPrefix(res[1].Err, "not sent") {
		t.Fatalf("the write after it: %+v", res[1])
	}
	if n := w.calls("mark_email"); n != 1 {
		t.Fatalf("mark_email sent %d times, want 1 (never resent)", n)
	}
	if b := w.box(); b.find("INBOX", 1).Seen || b.find("INBOX", 3).Seen {
		t.Fatal("the mailbox changed")
	}
	// Reading reconnects (reads are the way to settle the unknown).
	if m, ok, err := w.spec.Provider.Lookup(t.Context(), w.a, "INBOX", 1); err != nil || !ok || m.Seen {
		t.Fatalf("lookup after the drop: %+v %v %v", m, ok, err)
	}
	if n := w.calls("mark_email"); n != 1 {
		t.Fatalf("mark_email sent %d times after reconnecting", n)
	}
}

// A wrong password, answered as plain text without isError (email-mcp
// fixture) or as a thrown JSON-RPC error (mcp-mail-server fixture), ends
// in auth_failed after one dial, and nothing is dialled after that.
func TestWrongPasswordEndsInAuthFailed(t *testing.T) {
	for _, profile := range []string{"email-mcp", "mcp-mail-server"} {
		t.Run(profile, func(t *testing.T) {
			w := newWorld(t, profile, nil)
			w.seed(inbox()...)
			w.set("password", "the-right-one", true)
			_, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{})
			mustClass(t, err, conn.ClassAuth)
			st := w.a.Status()
			if st.State != conn.StateAuthFailed || st.Class != conn.ClassAuth || st.Dials != 1 {
				t.Fatalf("after a refused login: %+v", st)
			}
			_, err = w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{})
			if !errors.Is(err, conn.ErrAuthFailed) || w.a.Status().Dials != 1 {
				t.Fatalf("second call: %v, %d dials", err, w.a.Status().Dials)
			}
			if strings.Contains(st.LastError, w.password) || strings.Contains(err.Error(), w.password) {
				t.Fatal("the secret leaked into error text")
			}
		})
	}
}

// A server that logs in at startup and exits with "Error: Authentication
// failed" on stderr, before the handshake, is classed auth (no quick retry).
func TestStderrAuthExitIsAuth(t *testing.T) {
	// exit-auth-late closes its stdout 100 ms before it says why: the
	// stderr tail is read only once the child is reaped.
	for _, knob := range []string{"exit-auth", "exit-auth-late"} {
		t.Run(knob, func(t *testing.T) {
			w := newWorld(t, "email-mcp", nil)
			w.set(knob, "", true)
			err := w.a.EnsureConnected(t.Context())
			mustClass(t, err, conn.ClassAuth)
			if st := w.a.Status(); st.State != conn.StateAuthFailed || st.Dials != 1 {
				t.Fatalf("after an auth exit: %+v", st)
			}
			if !strings.Contains(w.a.Stderr(), "Authentication failed") {
				t.Fatalf("stderr lost: %q", w.a.Stderr())
			}
		})
	}
}

// mcp-mail-server exits at startup without its variables: a config error.
func TestMissingEnvIsConfig(t *testing.T) {
	w := newWorld(t, "mcp-mail-server", func(ac *config.Account) { delete(ac.Env, "EMAIL_USER") })
	err := w.a.EnsureConnected(t.Context())
	mustClass(t, err, conn.ClassConfig)
	if st := w.a.Status(); st.Dials != 1 || !strings.Contains(w.a.Stderr(), "EMAIL_USER") {
		t.Fatalf("after a missing variable: %+v %q", st, w.a.Stderr())
	}
}

// Provision steps run on every connect, in order; a failing one fails the
// connect with its class.
func TestProvisionRunsEveryConnect(t *testing.T) {
	w := newWorld(t, "email-mcp", func(ac *config.Account) {
		ac.Provision = []config.ToolCall{
			{Tool: "check_health", Args: map[string]any{"account": "default"}},
			{Tool: "list_mailboxes", Args: map[string]any{"account": "default"}},
		}
	})
	w.seed(inbox()...)
	w.set("die-list_emails", "", true)
	if _, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if w.calls("check_health") != 2 || w.calls("list_mailboxes") != 2 {
		t.Fatalf("provision ran %d/%d times over 2 connects", w.calls("check_health"), w.calls("list_mailboxes"))
	}
	w.a.Close()

	bad := newWorld(t, "email-mcp", func(ac *config.Account) {
		ac.Provision = []config.ToolCall{{Tool: "list_mailboxes", Args: map[string]any{"account": "default"}}}
	})
	bad.set("password", "other", true)
	mustClass(t, bad.a.EnsureConnected(t.Context()), conn.ClassAuth)
	if st := bad.a.Status(); st.State != conn.StateAuthFailed || st.Dials != 1 {
		t.Fatalf("failed provisioning: %+v", st)
	}
}

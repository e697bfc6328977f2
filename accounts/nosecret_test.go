package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// An unset password_env is no_secret, not a server failure: no countdown,
// a message that names the key, no dial on a timer, and a refresh after
// the variable is set connects.
func TestUnsetPasswordEnvIsNoSecret(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	user, pass := mem.NewUser(t)
	a := openAccount(t, config.Account{Name: "Mail", Kind: "imap", Host: mem.Host(), Port: mem.Port(),
		Security: "none", Username: user, PasswordEnv: "UNIBOX_NOSECRET_PW"}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := a.List(ctx, ListOptions{})
	h := HealthOf(a, a.Status(), err, time.Now())
	if !errors.Is(err, conn.ErrNoSecret) || !h.NoSecret() || h.CooldownSeconds != 0 || !strings.Contains(h.Line(), "UNIBOX_NOSECRET_PW") {
		t.Fatalf("err %v, state %s, cooldown %d, line %q", err, h.State, h.CooldownSeconds, h.Line())
	}
	if h.Badge(time.Now()) != "◇ secret missing" {
		t.Fatalf("label %q", h.Badge(time.Now()))
	}
	t.Setenv("UNIBOX_NOSECRET_PW", pass)
	if err := a.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.List(ctx, ListOptions{}); err != nil || !a.Health().Connected() {
		t.Fatalf("after refresh: %v, %s", err, a.Health().State)
	}
}

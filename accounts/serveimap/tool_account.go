package serveimap

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/secret"
	"unibox/conn"
)

// addAccount provisions an account, logging in once to verify. Adding an
// account that exists replaces it (the adapter re-provisions after every
// connect, and a changed password must take effect).
func (s *Server) addAccount(ctx context.Context, in imapwire.AddAccountIn) (imapwire.AddAccountOut, string, error) {
	if in.Account == "" || in.Host == "" || in.Port <= 0 || in.Port > 65535 || in.Username == "" {
		return imapwire.AddAccountOut{}, "", withClass(conn.ClassConfig, errors.New("add_account needs account, host, port (1-65535) and username"))
	}
	roots, err := trust(in.TLSCAPEM)
	if err != nil {
		return imapwire.AddAccountOut{}, "", err
	}
	a := &account{srv: s, cfg: in, roots: roots, live: s.liveness(in.Account)}
	a.mu.Lock()
	c, err := a.dial(ctx)
	if err != nil {
		a.mu.Unlock()
		// The account is not registered yet, so scrub its password here.
		return imapwire.AddAccountOut{}, "", withClass(classOf(err, "login"), errors.New(secret.Redact(err.Error(), in.Password)))
	}
	a.c = c
	caps := make([]string, 0, len(c.Caps()))
	for cp := range c.Caps() {
		caps = append(caps, string(cp))
	}
	a.mu.Unlock()
	sort.Strings(caps)

	s.mu.Lock()
	old := s.accounts[in.Account]
	s.accounts[in.Account] = a
	s.mu.Unlock()
	if old != nil {
		old.mu.Lock()
		old.drop()
		old.mu.Unlock()
	}
	s.opts.Logger.Info("account added", "account", in.Account, "host", in.Host, "user", in.Username)
	return imapwire.AddAccountOut{Account: in.Account, Capabilities: caps},
		fmt.Sprintf("account %s provisioned (%s@%s)", in.Account, in.Username, in.Host), nil
}

// checkAccount is the adapter's health probe: a NOOP on the account's own
// connection (reconnecting if the server hung up), so a silent half-open
// connection is found within one probe interval. It never queues behind
// a command: while one holds the connection (a slow SEARCH, or one the
// server went silent on), the server is proved on another connection
// instead, so a silent server is seen in seconds, not after the
// command's deadline.
func (s *Server) checkAccount(ctx context.Context, in imapwire.AccountIn) (imapwire.CheckAccountOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.CheckAccountOut{}, "", err
	}
	start := time.Now()
	if !a.mu.TryLock() {
		if err := a.prove(ctx); err != nil {
			return imapwire.CheckAccountOut{}, "", fmt.Errorf("check %s: %w", in.Account, withClass(conn.ClassTimeout, err))
		}
		lat := time.Since(start)
		return imapwire.CheckAccountOut{Account: in.Account, LatencyMS: lat.Milliseconds(), Busy: true, Push: s.pushState(in.Account)},
			fmt.Sprintf("%s ok in %s (busy: proved on another connection)", in.Account, lat.Round(time.Millisecond)), nil
	}
	defer a.mu.Unlock()
	s.checkWatchers(in.Account)
	ctx = withPatience(ctx, checkSilenceAfter)
	// The same re-dial as every read: a server that hung up between calls
	// gets one fresh connection, decided from the NOOP's error.
	reconnected, err := a.readLocked(ctx, func(c *imapclient.Client) error {
		return a.cmd(ctx, c, func() error { return c.Noop().Wait() })
	})
	if err != nil {
		a.drop()
		return imapwire.CheckAccountOut{}, "", fmt.Errorf("check %s: %w", in.Account, err)
	}
	lat := time.Since(start)
	return imapwire.CheckAccountOut{Account: in.Account, LatencyMS: lat.Milliseconds(), Reconnected: reconnected, Push: s.pushState(in.Account)},
		fmt.Sprintf("%s ok in %s", in.Account, lat.Round(time.Millisecond)), nil
}

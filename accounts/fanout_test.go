package accounts

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"unibox/accounts/config"
	"unibox/accounts/demo"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/unibin"
	"unibox/conn"
)

// TestMain doubles as a third-party MCP mail server (mcpSendServer); the
// accounts' serve-imap children are the real binary (unibin).
func TestMain(m *testing.M) {
	if dir := os.Getenv("UNIBOX_TEST_MCP_SEND"); dir != "" {
		os.Exit(mcpSendServer(dir))
	}
	goleak.VerifyTestMain(m)
}

func testExe(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func openTest(t *testing.T, cfg *config.Config, d *demo.Demo) *Set {
	set, err := Open(cfg, Options{Exe: unibin.Exe(t), Password: d.Password})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}

// One hung account and one refusing account cost the healthy one nothing:
// every account settles, each at its own speed, failures are results.
func TestFanoutIsolatesDeadAccounts(t *testing.T) {
	d, err := demo.Start(time.Now(), demo.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cfg := *d.Config()
	// Yahoo cools down for a minute: its self-probe never starts while the
	// test still looks at it.
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	cfg.Accounts = append([]config.Account(nil), cfg.Accounts...)
	cfg.Accounts[1].Port = imaptest.HungServer(t) // Personal: hangs
	d.Server("Yahoo").Refuse()                    // Yahoo: refuses
	set := openTest(t, &cfg, d)
	const deadline = 4 * time.Second
	start := time.Now()
	res := Fanout(context.Background(), set.Accounts, deadline, func(ctx context.Context, a *Account) (Page, error) {
		return a.List(ctx, ListOptions{Limit: 10})
	})
	took := time.Since(start)
	if res[0].Err != nil || len(res[0].Value.Messages) != 10 {
		t.Fatalf("Work failed: %v", res[0].Err)
	}
	if res[0].Took > deadline/2 {
		t.Fatalf("the healthy account took %s: held back by the others", res[0].Took)
	}
	if c := conn.ClassOf(res[1].Err); c != conn.ClassTimeout {
		t.Fatalf("hung account: class %s (%v), want timeout", c, res[1].Err)
	}
	if c := conn.ClassOf(res[2].Err); c != conn.ClassUnavailable {
		t.Fatalf("refusing account: class %s (%v), want unavailable", c, res[2].Err)
	}
	if took > deadline+3*time.Second {
		t.Fatalf("fan-out took %s with a %s per-account deadline", took, deadline)
	}
	// The refusing account now fails fast: it is cooling down.
	start = time.Now()
	_, err = set.Accounts[2].List(context.Background(), ListOptions{})
	if !errors.Is(err, conn.ErrCoolingDown) || time.Since(start) > time.Second {
		t.Fatalf("second call on a down account: %v after %s", err, time.Since(start))
	}
}

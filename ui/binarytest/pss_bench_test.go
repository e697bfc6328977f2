package binarytest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// BenchmarkPSS: the total proportional set size of the real binary as
// `unibox mcp` and its serve-imap children, once every account has listed
// into the local store, with 1 and with 20 accounts (the note quotes
// the ratio and the MiB).
func BenchmarkPSS(b *testing.B) {
	bin := buildUnibox(b)
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var cfg strings.Builder
	for i := range 20 {
		user := fmt.Sprintf("u%02d", i)
		if err := srv.AddUser(user, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive}); err != nil {
			b.Fatal(err)
		}
		for j := range 50 {
			raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("message %d", j), Date: time.Now().Add(-time.Duration(j) * time.Hour), Body: strings.Repeat("text ", 200)}.Bytes()
			if _, err := srv.Append(user, "INBOX", raw, nil, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		fmt.Fprintf(&cfg, "[[account]]\nname = \"A%02d\"\nhost = \"127.0.0.1\"\nport = %d\nsecurity = \"none\"\nusername = %q\npassword_env = \"PW\"\n\n", i, srv.Port(), user)
	}
	accounts := strings.SplitAfter(cfg.String(), "\n\n")
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(strings.Join(accounts[:n], "")), 0o600); err != nil {
				b.Fatal(err)
			}
			var mib float64
			for b.Loop() {
				mib = pssAfterListing(b, bin, path, dir)
			}
			b.ReportMetric(mib, "MiB-pss")
		})
	}
}

// pssAfterListing starts `unibox mcp`, lists every account through it and
// sums the PSS of it and its children.
func pssAfterListing(b *testing.B, bin, config, cache string) float64 {
	cmd := exec.Command(bin, "mcp", "--config", config)
	cmd.Env = []string{"PW=pw", "XDG_CACHE_HOME=" + cache, "XDG_STATE_HOME=" + cache}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_messages", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		b.Fatalf("list_messages: %v %v", err, res)
	}
	kb := pss(cmd.Process.Pid)
	for _, kid := range childrenOf(cmd.Process.Pid) {
		kb += pss(kid)
	}
	return float64(kb) / 1024
}

// pss is a process's Pss in kB (smaps_rollup).
func pss(pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int
		if _, err := fmt.Sscanf(sc.Text(), "Pss: %d kB", &kb); err == nil {
			return kb
		}
	}
	return 0
}

// childrenOf lists the processes whose parent is pid (every thread's
// children: Go forks from whichever thread runs).
func childrenOf(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var kids []int
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(b)) {
			var k int
			fmt.Sscanf(f, "%d", &k)
			kids = append(kids, k)
		}
	}
	return kids
}

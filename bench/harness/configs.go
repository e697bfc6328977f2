package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// account is one account of a run: which Dovecot user at which address.
type account struct {
	name, user, addr string
}

// accountsFor gives n accounts cycling through the users; down names
// the accounts whose address is a port nothing listens on.
func accountsFor(addr string, n int, down map[int]bool, closed string) []account {
	var out []account
	for i := range n {
		user := users[i%len(users)]
		a := account{name: user, user: user, addr: addr}
		if n > len(users) {
			a.name = fmt.Sprintf("%s%02d", user, i)
		}
		if down[i] {
			a.addr = closed
		}
		out = append(out, a)
	}
	return out
}

// closedPort is an address on loopback that refuses connections: a port
// the kernel just gave out and that nothing listens on any more.
func closedPort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	l.Close()
	return addr, nil
}

// home is one program's private folders for a run: its config, cache,
// data and state, so a cold run starts from nothing.
type home struct{ dir string }

func newHome(root, name string) (home, error) {
	dir, err := os.MkdirTemp(root, name+"-")
	if err != nil {
		return home{}, err
	}
	for _, sub := range []string{"config", "cache", "data", "state"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return home{}, err
		}
	}
	return home{dir: dir}, nil
}

func (h home) env() []string {
	return []string{
		"HOME=" + h.dir,
		"XDG_CONFIG_HOME=" + filepath.Join(h.dir, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(h.dir, "cache"),
		"XDG_DATA_HOME=" + filepath.Join(h.dir, "data"),
		"XDG_STATE_HOME=" + filepath.Join(h.dir, "state"),
		"TERM=tmux-256color",
		"LANG=C.UTF-8",
		"PATH=/usr/local/bin:/usr/bin:/bin",
	}
}

// uniboxConfig writes unibox's config.toml for accts and returns its path.
func (h home) uniboxConfig(accts []account) (string, error) {
	var b strings.Builder
	for _, a := range accts {
		host, port, _ := net.SplitHostPort(a.addr)
		fmt.Fprintf(&b, "[[account]]\nname = %q\nhost = %q\nport = %s\nsecurity = \"none\"\nusername = %q\npassword_env = \"PW_%s\"\n\n",
			a.name, host, port, a.user, strings.ToUpper(a.user))
	}
	path := filepath.Join(h.dir, "config", "unibox.toml")
	return path, os.WriteFile(path, []byte(b.String()), 0o600)
}

func passwordEnv() []string {
	var out []string
	for _, u := range users {
		out = append(out, "PW_"+strings.ToUpper(u)+"="+u+"-pw")
	}
	return out
}

// aercConfig writes aerc's accounts.conf (aerc reads passwords from the
// source URL; the file must be private) and an aerc.conf that keeps
// aerc's defaults.
func (h home) aercConfig(accts []account) error {
	dir := filepath.Join(h.dir, "config", "aerc")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var b strings.Builder
	for _, a := range accts {
		fmt.Fprintf(&b, "[%s]\nsource = imap+insecure://%s:%s-pw@%s\noutgoing = /bin/false\ndefault = INBOX\nfrom = %s <%s@example.com>\n\n",
			a.name, a.user, a.user, a.addr, a.user, a.user)
	}
	if err := os.WriteFile(filepath.Join(dir, "accounts.conf"), []byte(b.String()), 0o600); err != nil {
		return err
	}
	for _, f := range []string{"aerc.conf", "binds.conf"} {
		src, err := os.ReadFile(filepath.Join("/usr/share/aerc", f))
		if err != nil {
			return fmt.Errorf("aerc's default %s: %w", f, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o600); err != nil {
			return err
		}
	}
	return nil
}

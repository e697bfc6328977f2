package mcpprovider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/secret"
	"unibox/conn"
)

// child knows how to start one account's server.
type child struct {
	account   string
	command   []string
	cwd       string
	base      map[string]string // PATH, HOME and the account's env table
	secretEnv string            // "" when the account has no password
	password  func(context.Context) (string, error)
	secrets   *secret.Box
}

func newChild(ac config.Account, secretEnv string, password func(context.Context) (string, error), o Options) *child {
	if o.Path == "" {
		o.Path = os.Getenv("PATH")
	}
	if o.Home == "" {
		o.Home = os.Getenv("HOME")
	}
	base := map[string]string{"PATH": o.Path, "HOME": o.Home}
	for k, v := range ac.Env {
		base[k] = v // the account may pin its own HOME (email-mcp keeps a mail queue there)
	}
	return &child{account: ac.Name, command: slices.Clone(ac.Command), cwd: ac.Cwd, base: base,
		secretEnv: secretEnv, password: password, secrets: &secret.Box{}}
}

// dial starts a fresh child: exec.Cmds are single-use, and the secret is
// fetched again each time (a password_cmd may hand out a rotated one).
func (c *child) dial(ctx context.Context) (mcp.Transport, error) {
	env, err := c.env(ctx)
	if err != nil {
		return nil, err
	}
	path, err := lookPath(c.command[0], c.base["PATH"], c.cwd)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, c.command[1:]...)
	cmd.Args[0] = c.command[0]
	cmd.Env = env
	cmd.Dir = c.cwd
	return &mcp.CommandTransport{Command: cmd}, nil
}

// env is the child's whole environment: never the parent's wholesale,
// never another account's secret.
func (c *child) env(ctx context.Context) ([]string, error) {
	vars := make(map[string]string, len(c.base)+1)
	for k, v := range c.base {
		vars[k] = v
	}
	if c.secretEnv != "" {
		secret, err := c.password(ctx)
		if err != nil {
			// The password source is broken: no server can fix that, so it is
			// a configuration error (no quick retries), not a dead child.
			return nil, &conn.Error{Account: c.account, Op: "password", Class: conn.ClassConfig,
				Err: conn.NoSecret(fmt.Errorf("fetch the password for %s: %w", c.secretEnv, err))}
		}
		c.secrets.Add(secret)
		vars[c.secretEnv] = secret
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env, nil
}

// learn fetches the secret into what the account scrubs, starting no
// child.
func (c *child) learn(ctx context.Context) error {
	if c.secretEnv == "" {
		return nil
	}
	secret, err := c.password(ctx)
	c.secrets.Add(secret)
	return err
}

// lookPath finds a bare command name in the child's PATH, not ours: the
// child is promised that PATH, so its program must come from it too.
func lookPath(name, path, cwd string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) && cwd != "" {
			dir = filepath.Join(cwd, dir)
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	// exec.Error is what conn classes as a configuration error.
	return "", &exec.Error{Name: name, Err: fmt.Errorf("%w in the child's PATH %q", exec.ErrNotFound, path)}
}

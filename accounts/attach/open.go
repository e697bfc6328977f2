package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"unibox/model"
	"unibox/model/filename"
	"unibox/model/runnable"
)

// DefaultOpenCmd is [ui] open_cmd's default.
var DefaultOpenCmd = []string{"xdg-open"}

// Opener opens attachments with open_cmd (a program and its arguments,
// no shell; the file's path is appended) from a private temporary
// folder: the folder 0700, each file 0600 and never executable, all of
// it removed by Close (when the TUI exits: the viewer reads the file
// after open_cmd returns, so it cannot go sooner).
type Opener struct {
	Cmd []string
	// Wait is how long Open waits for open_cmd to exit, to report its
	// failure (default 3 s); a viewer that stays is left running.
	Wait time.Duration

	mu  sync.Mutex
	dir string
	wg  sync.WaitGroup
}

// Open saves attachment index of id into the private folder and hands
// it to open_cmd, unless it would run something (a program, a script, a
// launcher: by its name, before anything is fetched, and by its content
// after): then a *runnable.Refused says why and nothing is opened.
func (o *Opener) Open(ctx context.Context, src Source, id model.MessageID, index int, mailName string) (string, error) {
	name := filename.Safe(mailName)
	if err := runnable.Check(name, nil); err != nil {
		return "", err
	}
	if len(o.Cmd) == 0 || o.Cmd[0] == "" {
		return "", errors.New("open_cmd is empty")
	}
	dir, err := o.folder()
	if err != nil {
		return "", err
	}
	sub, err := os.MkdirTemp(dir, "") // one per open: names never clash
	if err != nil {
		return "", fmt.Errorf("open: %w", err)
	}
	if _, err := src.SavePart(ctx, id, index, sub, name); err != nil {
		os.RemoveAll(sub)
		return "", err
	}
	path := filepath.Join(sub, name)
	if err := checkContent(path, name); err != nil {
		os.RemoveAll(sub)
		return "", err
	}
	return path, o.run(path)
}

// checkContent refuses a file whose first bytes make it runnable, and
// takes any exec bit off (the child creates it 0600; this makes sure).
func checkContent(path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	head := make([]byte, runnable.HeadBytes)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if err := runnable.Check(name, head[:n]); err != nil {
		return err
	}
	return os.Chmod(path, 0o600)
}

// run starts open_cmd on path and waits a little for its exit status.
func (o *Opener) run(path string) error {
	cmd := exec.Command(o.Cmd[0], append(o.Cmd[1:len(o.Cmd):len(o.Cmd)], path)...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open_cmd %s: %w", model.Quote(o.Cmd[0]), err)
	}
	done := make(chan error, 1)
	o.wg.Add(1)
	go func() { defer o.wg.Done(); done <- cmd.Wait() }()
	wait := o.Wait
	if wait <= 0 {
		wait = 3 * time.Second
	}
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("open_cmd %s: %w", model.Quote(strings.Join(o.Cmd, " ")), err)
		}
	case <-time.After(wait):
	}
	return nil
}

// folder makes the private folder on first use.
func (o *Opener) folder() (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dir == "" {
		d, err := os.MkdirTemp("", "unibox-open-") // 0700
		if err != nil {
			return "", fmt.Errorf("open: %w", err)
		}
		o.dir = d
	}
	return o.dir, nil
}

// Close removes the private folder and everything opened from it. It
// waits a little (Wait) for open_cmd runs still going: xdg-open returns
// at once; a viewer run directly as open_cmd is not waited for.
func (o *Opener) Close() error {
	waited := make(chan struct{})
	go func() { o.wg.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(max(o.Wait, 3*time.Second)):
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dir == "" {
		return nil
	}
	err := os.RemoveAll(o.dir)
	o.dir = ""
	return err
}

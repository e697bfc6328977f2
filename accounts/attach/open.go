package attach

import (
	"context"
	"errors"
	"fmt"
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

// Opening is one open under way: its private folder and the safe name
// the file gets there.
type Opening struct {
	o         *Opener
	sub, name string
}

// Prepare refuses a name that is not on the allow list (before anything
// is fetched: a *runnable.Refused says why) and makes the private folder
// of one open.
func (o *Opener) Prepare(mailName string) (*Opening, error) {
	name := filename.Safe(mailName)
	if err := runnable.CheckName(name); err != nil {
		return nil, err
	}
	if len(o.Cmd) == 0 || o.Cmd[0] == "" {
		return nil, errors.New("open_cmd is empty")
	}
	dir, err := o.folder()
	if err != nil {
		return nil, err
	}
	sub, err := os.MkdirTemp(dir, "") // one per open: names never clash
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	return &Opening{o: o, sub: sub, name: name}, nil
}

// Written is how many bytes have reached the file so far, for a
// progress bar.
func (p *Opening) Written() int64 {
	fi, err := os.Stat(filepath.Join(p.sub, p.name))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Run has src write attachment index of id into the private folder and
// hands it to open_cmd, unless its content is not the allowed kind its
// name says (a *runnable.Refused says why, and the file is gone).
func (p *Opening) Run(ctx context.Context, src Source, id model.MessageID, index int) (string, error) {
	if _, err := src.SavePart(ctx, id, index, p.sub, p.name); err != nil {
		os.RemoveAll(p.sub)
		return "", err
	}
	path := filepath.Join(p.sub, p.name)
	if err := checkContent(path, p.name); err != nil {
		os.RemoveAll(p.sub)
		return "", err
	}
	return path, p.o.run(path)
}

// Open is Prepare and Run in one.
func (o *Opener) Open(ctx context.Context, src Source, id model.MessageID, index int, mailName string) (string, error) {
	p, err := o.Prepare(mailName)
	if err != nil {
		return "", err
	}
	return p.Run(ctx, src, id, index)
}

// checkContent refuses a file whose content is not the allowed kind its
// name says (runnable.CheckFile), and takes any exec bit off (the child
// creates it 0600; this makes sure).
func checkContent(path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	if err := runnable.CheckFile(name, f, fi.Size()); err != nil {
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

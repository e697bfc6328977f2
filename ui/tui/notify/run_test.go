package notify

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
)

// now is the fixed clock the rows are dated by.
var now = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// fifo is a named pipe the test holds open both ways: what a child writes
// into it arrives as an event (no file polled), a child's write never
// blocks for want of a reader, and a read never ends early for want of a
// writer. The lines of one the test reads come on a channel, so that it
// can wait for one and for the notifier's messages at once.
type fifo struct {
	path  string
	f     *os.File
	once  sync.Once
	lines chan string
}

func newFifo(t *testing.T, name string) *fifo {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &fifo{path: path, f: f, lines: make(chan string, 16)}
}

// read is the pipe's lines, read from the first call on (a pipe the test
// only writes to must not be read by it: its lines are the child's).
func (p *fifo) read() <-chan string {
	p.once.Do(func() {
		go func() {
			r := bufio.NewReader(p.f)
			for {
				s, err := r.ReadString('\n')
				if err != nil {
					return // closed at the test's end
				}
				p.lines <- strings.TrimSuffix(s, "\n")
			}
		}()
	})
	return p.lines
}

// send writes a line for a child to read.
func (p *fifo) send(t *testing.T, s string) {
	t.Helper()
	if _, err := p.f.WriteString(s + "\n"); err != nil {
		t.Fatal(err)
	}
}

// program runs a Notifier as Bubble Tea would: its commands on goroutines
// of their own, their messages handed back to it one at a time, on the
// test's goroutine, with what it tells the root kept.
type program struct {
	n    Notifier
	msgs chan tea.Msg
	said []tea.Msg
}

func newProgram(t *testing.T, argv []string, window, timeout time.Duration) *program {
	p := &program{msgs: make(chan tea.Msg, 16)}
	p.n = New(t.Context(), func(m ...tea.Msg) { p.said = append(p.said, m...) }, argv, "", window, timeout)
	return p
}

// run starts cmd (a batch: each of its commands) as the program does.
func (p *program) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				p.run(c)
			}
			return
		}
		if msg != nil {
			p.msgs <- msg
		}
	}()
}

// arrived hands the notifier the fresh rows of a rebuild.
func (p *program) arrived(rows ...model.Row) {
	var cmd tea.Cmd
	p.n, cmd = p.n.Arrived(rows)
	p.run(cmd)
}

// await hands the notifier its messages until a line comes on f, and
// returns it; the bound is a failure's.
func (p *program) await(t *testing.T, f *fifo) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l := <-f.read():
			return l
		case msg := <-p.msgs:
			p.update(msg)
		case <-deadline:
			t.Fatalf("%s: no line within 10s", filepath.Base(f.path))
		}
	}
}

// update hands one message to the notifier.
func (p *program) update(msg tea.Msg) {
	var cmd tea.Cmd
	p.n, cmd = p.n.Update(msg)
	p.run(cmd)
}

// fresh is a new unread row of Work's inbox, as a refresh marks it.
func fresh(uid uint32, from, subject string, age time.Duration) model.Row {
	return model.Row{Fresh: true, Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
		From: model.Address{Name: from, Address: "x@example.com"}, Subject: subject, Date: now.Add(-age)}}
}

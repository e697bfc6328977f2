package memimap

import (
	"bytes"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// session wraps an imapmemserver session: it lists special-use attributes
// (imapmemserver never sets them) and keeps the folder set in sync. It
// does not implement MOVE; moveSession adds it.
type session struct {
	imapserver.Session
	srv      *Server
	conn     *imapserver.Conn
	userName string
}

type moveSession struct{ *session }

func (m *moveSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	if !m.srv.opts.Faults.wait("MOVE") {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "aborted by the test"}
	}
	err := m.Session.(imapserver.SessionMove).Move(w, numSet, dest)
	m.fault("MOVE")
	return err
}

// Select refuses EXAMINE while Faults.RefuseExamine says so.
func (s *session) Select(mailbox string, options *imap.SelectOptions) (*imap.SelectData, error) {
	if options != nil && options.ReadOnly && s.srv.opts.Faults.examineRefused() {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "EXAMINE refused by the test"}
	}
	data, err := s.Session.Select(mailbox, options)
	if err == nil && s.srv.opts.NoKeywords {
		d := *data
		d.PermanentFlags = nil
		for _, f := range data.PermanentFlags {
			if strings.HasPrefix(string(f), `\`) && f != imap.FlagWildcard {
				d.PermanentFlags = append(d.PermanentFlags, f)
			}
		}
		if len(d.PermanentFlags) == 0 {
			// An empty list reads as none sent at all (go-imap), which
			// means every flag is kept: say the system flags outright.
			d.PermanentFlags = []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft}
		}
		data = &d
	}
	return data, err
}

// Fetch refuses a FETCH by sequence number while Faults.RefuseSeqFetch
// says so, and waits while Faults.HoldNext("FETCH") holds it.
func (s *session) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	if !s.srv.opts.Faults.wait("FETCH") {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "aborted by the test"}
	}
	if s.srv.opts.Faults.fetchThrottled() {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: "too many requests, slow down (the test)"}
	}
	if _, bySeq := numSet.(imap.SeqSet); bySeq && s.srv.opts.Faults.seqFetchRefused() {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "some of the requested messages no longer exist (the test)"}
	}
	return s.Session.Fetch(w, numSet, options)
}

// Idle counts the IDLE commands, and hangs up on one that outlasts
// Options.IdleLimit.
func (s *session) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	s.srv.idles.Add(1)
	if limit := s.srv.opts.IdleLimit; limit > 0 {
		t := time.AfterFunc(limit, func() { _ = s.conn.NetConn().Close() })
		defer t.Stop()
	}
	// What changed between the last command and this IDLE is sent now, as
	// Dovecot does: go-imap's tracker would hold it until the next change.
	if err := s.Session.Poll(w, true); err != nil {
		return err
	}
	return s.Session.Idle(w, stop)
}

// fault hangs up after a command was carried out, if a test asked for it.
func (s *session) fault(cmd string) {
	f := s.srv.opts.Faults
	if f.take(cmd) {
		_ = s.conn.NetConn().Close()
		if f.OnDrop != nil {
			f.OnDrop()
		}
	}
}

func (s *session) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	if !s.srv.opts.Faults.wait("STORE") {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "aborted by the test"}
	}
	err := s.Session.Store(w, numSet, flags, options)
	s.fault("STORE")
	return err
}

// Append waits while Faults.HoldNext("APPEND") holds it, with the whole
// message read (a client killed meanwhile has handed it over, as over a
// real link), and hangs up after storing when Faults.DropAfter("APPEND")
// says so: the message is there, and its client cannot know.
func (s *session) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if !s.srv.opts.Faults.wait("APPEND") {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "aborted by the test"}
	}
	d, err := s.Session.Append(mailbox, bytes.NewReader(raw), options)
	s.fault("APPEND")
	return d, err
}

func (s *session) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	d, err := s.Session.Copy(numSet, dest)
	s.fault("COPY")
	return d, err
}

func (s *session) Login(username, password string) error {
	if err := s.srv.opts.Faults.loginFault(); err != nil {
		return err
	}
	if err := s.Session.Login(username, password); err != nil {
		return err
	}
	s.userName = username
	return nil
}

func (s *session) Close() error {
	s.srv.forget(s.conn)
	return s.Session.Close()
}

func (s *session) Create(name string, options *imap.CreateOptions) error {
	if err := s.Session.Create(name, options); err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if u := s.srv.users[s.userName]; u != nil {
		u.folders[strings.TrimRight(name, "/")] = ""
	}
	return nil
}

func (s *session) Delete(name string) error {
	if err := s.Session.Delete(name); err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if u := s.srv.users[s.userName]; u != nil {
		delete(u.folders, name)
	}
	return nil
}

func (s *session) Rename(name, newName string, options *imap.RenameOptions) error {
	if err := s.Session.Rename(name, newName, options); err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if u := s.srv.users[s.userName]; u != nil {
		u.folders[newName] = u.folders[name]
		delete(u.folders, name)
	}
	return nil
}

// List re-implements LIST over the tracked folders so it can return
// special-use attributes and LIST-STATUS data.
func (s *session) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: '/'})
	}
	s.srv.mu.Lock()
	u := s.srv.users[s.userName]
	var names []string
	attrs := map[string]imap.MailboxAttr{}
	if u != nil {
		for n, a := range u.folders {
			names = append(names, n)
			attrs[n] = a
		}
	}
	s.srv.mu.Unlock()
	sort.Strings(names)
	for _, name := range names {
		match := false
		for _, p := range patterns {
			if imapserver.MatchList(name, '/', ref, p) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		special := !s.srv.opts.NoSpecialUse && attrs[name] != ""
		if options != nil && options.SelectSpecialUse && !special {
			continue
		}
		d := &imap.ListData{Mailbox: name, Delim: '/'}
		if special && options != nil && (options.ReturnSpecialUse || options.SelectSpecialUse) {
			d.Attrs = append(d.Attrs, attrs[name])
		}
		if options != nil && options.ReturnStatus != nil {
			st, err := s.Session.Status(name, options.ReturnStatus)
			if err == nil {
				d.Status = st
			}
		}
		if err := w.WriteList(d); err != nil {
			return err
		}
	}
	return nil
}

// literal is an APPEND's message read ahead of a hold.
type literal struct {
	io.Reader
	size int64
}

func (l literal) Size() int64 { return l.size }

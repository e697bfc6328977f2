package accounts

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/store"
	"unibox/model"
)

// cache is an account's part of the local store: every listing goes in,
// every triage action is recorded there as it is on the screen, and a
// face can read it without dialling. The providers stay stateless; the
// app owns the store. A store that fails never fails the account: the
// listing still answers, and the account's details say what went wrong.
type cache struct {
	st     *store.Store // nil: no store
	key    store.Key
	bodies int64 // cap on stored bodies in bytes; 0: bodies are not stored
	// fetch is which bodies the background fetch keeps, and how fast
	// (bodyfetch.go).
	fetch bodyPolicy

	// off says why there is no store though one was wanted (it could not
	// be opened); nil otherwise.
	off error

	mu      sync.Mutex
	problem string // the last store failure's reason, until a write succeeds
	// known is, per folder, the state the last page of a sync in pages
	// left (store.SyncStateAfter: the next page need not count the stored
	// uids again). Any other change to the stored rows forgets it.
	known map[string]store.SyncState
	// pending: per folder, the uids a triage action is under way on;
	// triages counts the actions begun and ended (see hold, fill).
	pending map[string]map[uint32]int
	triages uint64

	// writing keeps an optimistic triage write and a gap's fill apart.
	writing sync.Mutex
}

// storeKey is what identifies ac's mailbox: name, server and user. An MCP
// account has no host: its server's command line and environment stand
// for it, hashed, because a careless config may hold a secret there and
// the store must never.
func storeKey(ac config.Account) store.Key {
	if ac.Kind != config.KindMCP {
		return store.Key{Name: ac.Name, Host: ac.Host, User: ac.Username}
	}
	h := sha256.New()
	for _, arg := range ac.Command {
		fmt.Fprintf(h, "%q ", arg)
	}
	for _, k := range slices.Sorted(maps.Keys(ac.Env)) {
		fmt.Fprintf(h, "%q=%q ", k, ac.Env[k])
	}
	return store.Key{Name: ac.Name, Host: fmt.Sprintf("mcp:%x", h.Sum(nil)[:12])}
}

// storeOff is a store that could not be opened, as an error of the
// operation that needed it (`unibox sync`).
type storeOff struct{ err error }

func (e storeOff) Error() string { return "local store off: " + e.err.Error() }
func (e storeOff) Unwrap() error { return e.err }

// storeReason is a store error as Health.Store says it: "database or
// disk is full", "off: mkdir ...: not a directory".
func storeReason(err error) string {
	var off storeOff
	if errors.As(err, &off) {
		return "off: " + store.Reason(off.err)
	}
	return store.Reason(err)
}

// note keeps a read's failure as the store's problem. A call cut off (its
// deadline, the face closing) is no trouble of the store's.
func (c *cache) note(err error) {
	if err == nil || errors.Is(err, store.ErrNotStored) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problem = store.Reason(err)
}

// noteWrite is note for a write: one that succeeds ends the problem (the
// disk has room again), which a read that succeeds does not prove.
func (c *cache) noteWrite(err error) {
	if err != nil {
		c.note(err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problem = ""
}

// trouble is what is wrong with the account's store now, in a few words
// ("database or disk is full"), or "" when nothing is: the one value the
// details, `status` and account_status read (Health.Store).
func (c *cache) trouble() string {
	if c.st == nil {
		if c.off == nil {
			return ""
		}
		return storeReason(storeOff{c.off})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.problem
}

// notes is what the details say of the store once: that its file was set
// aside while open.
func (c *cache) notes() []string {
	if c.st == nil {
		return nil
	}
	if p := c.st.Problem(); p != "" {
		return []string{p}
	}
	return nil
}

// saveListing stores a page a server gave. A listing of unread messages
// only speaks for nothing but those, so it is not stored.
//
// Either way the page's messages get their thread ids (in p.Messages):
// Save sets those it stores; a listing of unread mail takes them from
// the stored rows.
func (c *cache) saveListing(opts ListOptions, p Page) {
	if c.st == nil {
		return
	}
	if opts.UnreadOnly {
		c.note(c.st.FillThreadIDs(context.Background(), c.key, storedName(cmp.Or(p.Folder, opts.Folder)), p.UIDValidity, p.Messages))
		return
	}
	c.forget()
	c.noteWrite(c.st.Save(context.Background(), c.key, store.Listing{Folder: p.Folder, UIDValidity: p.UIDValidity, Total: p.Total,
		Messages: p.Messages, More: p.More, BeforeUID: opts.BeforeUID, At: time.Now(), Inbox: opts.Folder == ""}))
}

// storedName is the name a folder is read from the store under: "" stays
// "" (the store's own inbox), and any other name is canonical, as the
// provider and the sync stored it (INBOX in any case is "INBOX").
func storedName(folder string) string {
	if folder == "" {
		return ""
	}
	return model.CanonicalFolder(folder)
}

// Cached is the newest page of folder ("": the inbox) as the store has
// it, and when the account last listed anything. It never dials;
// store.ErrNotStored means the store has nothing of it yet.
func (s *Stored) Cached(ctx context.Context, folder string, limit int) (Page, time.Time, error) {
	a := s.a
	if a.cache.st == nil {
		return Page{}, time.Time{}, store.ErrNotStored
	}
	snap, err := a.cache.st.Newest(ctx, a.cache.key, storedName(folder), limit)
	if err != nil {
		a.cache.note(err)
		return Page{}, time.Time{}, err
	}
	return a.screenPage(ctx, Page{Folder: snap.Name, UIDValidity: snap.UIDValidity, Total: snap.Total, Messages: snap.Messages, More: snap.More}), snap.AccountSyncedAt, nil
}

// CachedOlder is the stored page of folder below beforeUID (paging down
// while offline).
func (s *Stored) CachedOlder(ctx context.Context, folder string, beforeUID uint32, limit int) (Page, error) {
	a := s.a
	if a.cache.st == nil {
		return Page{}, store.ErrNotStored
	}
	snap, err := a.cache.st.Older(ctx, a.cache.key, storedName(folder), beforeUID, limit)
	a.cache.note(err)
	return a.screenPage(ctx, Page{Folder: snap.Name, UIDValidity: snap.UIDValidity, Total: snap.Total, Messages: snap.Messages, More: snap.More}), err
}

// CachedMatch is the newest limit stored rows of folder ("": the inbox)
// whose sender or subject holds text, as the list's filter matches: the
// filter reaches beyond the loaded pages without dialling.
func (s *Stored) CachedMatch(ctx context.Context, folder, text string, limit int) (Page, error) {
	a := s.a
	if a.cache.st == nil {
		return Page{}, store.ErrNotStored
	}
	snap, err := a.cache.st.Match(ctx, a.cache.key, storedName(folder), text, limit)
	a.cache.note(err)
	return a.screenPage(ctx, Page{Folder: snap.Name, UIDValidity: snap.UIDValidity, Total: snap.Total, Messages: snap.Messages, More: snap.More}), err
}

// CheckStore writes to the store once (store.Probe), so that a face that
// only looks (`unibox status`) learns whether it can take a write now:
// Health.Store says what it found.
func (a *Account) CheckStore(ctx context.Context) {
	if a.cache.st != nil {
		a.cache.noteWrite(a.cache.st.Probe(ctx))
	}
}

// SyncedAt is when the account last had a listing stored (zero: never, or
// no store).
func (a *Account) SyncedAt(ctx context.Context) time.Time {
	if a.cache.st == nil {
		return time.Time{}
	}
	at, err := a.cache.st.SyncedAt(ctx, a.cache.key)
	a.cache.note(err)
	return at
}

// saveBody keeps an opened body for reading offline (cache_bodies).
func (c *cache) saveBody(b model.Body) {
	if c.st == nil || c.bodies == 0 {
		return
	}
	c.noteWrite(c.st.SaveBody(context.Background(), c.key, b, c.bodies))
}

// offlineBody is id's stored body, for when its server cannot be
// reached; the error says why there is none.
func (c *cache) offlineBody(id model.MessageID) (model.Body, error) {
	if c.st == nil {
		return model.Body{}, errors.New("there is no local store")
	}
	if c.bodies == 0 {
		return model.Body{}, errors.New("bodies are not stored (cache_bodies is off)")
	}
	b, err := c.st.Body(context.Background(), c.key, id)
	if errors.Is(err, store.ErrNotStored) {
		setting := c.fetch.keep.String()
		if c.fetch.keep.Keep == config.BodiesNewer {
			setting = strconv.Quote(setting) // as the config file writes an age
		}
		return b, fmt.Errorf("its body is not stored: it was not opened while online, nor fetched in the background yet (cache_bodies = %s)", setting)
	}
	c.note(err)
	return b, err
}

// applyOptimistic records op on the stored rows before it is sent; the
// messages are held (under way) until settle.
func (c *cache) applyOptimistic(op model.Op, msgs []model.Message) []model.Message {
	if c.st == nil {
		return nil
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	c.hold(msgs)
	c.forget()
	prior, err := c.st.Apply(context.Background(), c.key, op, msgs)
	c.noteWrite(err)
	return prior
}

// settle puts back the stored rows of the messages the server did not
// change (refused, or no answer: nothing may count as done that was not). Done, gone and unknown outcomes keep the optimistic state: the
// next listing reads the server and corrects whatever is wrong.
func (c *cache) settle(msgs, prior []model.Message, res []model.ItemResult, err error) {
	if c.st == nil {
		return
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	defer c.release(msgs)
	if len(prior) == 0 {
		return
	}
	changed := map[uint32]bool{} // done, gone or unknown: maybe changed
	for _, r := range res {
		changed[r.UID] = r.Kind != model.ResultFailed
	}
	var back []model.Message
	for _, m := range prior {
		if err != nil || !changed[m.ID.UID] {
			back = append(back, m)
		}
	}
	c.forget()
	c.noteWrite(c.st.Revert(context.Background(), c.key, back))
}

// marked writes onto id's stored row a mark the server now has (the
// original of a sent reply or forward), so `list --cached` and the next
// launch show it at once instead of after the next sync, which would
// only confirm it. Only a done mark gets here: nothing is optimistic, so
// nothing is held or reverted. The sync's known state stays: a mark
// changes no uid, and the uids are all it counts.
func (c *cache) marked(id model.MessageID, mark provider.Mark) {
	if c.st == nil {
		return
	}
	set := func(m *model.Message) { m.Answered = true }
	if mark == provider.MarkForwarded {
		set = func(m *model.Message) { m.Forwarded = true }
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	_, err := c.st.Mark(context.Background(), c.key, id, set)
	c.noteWrite(err)
}

// knownState is the state the last page of folder's sync left, if any.
func (c *cache) knownState(folder string) store.SyncState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.known[folder]
}

// setKnown keeps the state a page of folder's sync left (zero: none).
func (c *cache) setKnown(folder string, st store.SyncState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil {
		c.known = map[string]store.SyncState{}
	}
	c.known[folder] = st
}

// forget drops every known sync state: the stored rows changed.
func (c *cache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.known = nil
}

// A store synced whole below UIDNEXT can still lack a message the server
// has: an archive applied to the store at once whose outcome stayed
// unknown and was never carried out, a row lost to a crash between two
// writes. An incremental sync fetches only uids at or above UIDNEXT, so
// such a gap would last forever; the sync's check (the counts disagree)
// names the missing uids, and they are fetched, only they.
//
// A message a triage action is under way on is no gap: the store shows
// the action before the server carries it out, so filling it would bring
// an archived message back. Those are left out, and a fill fetched while
// a triage began or ended is not stored (the next sync asks again).

// hold marks msgs as under a triage action (applyOptimistic).
func (c *cache) hold(msgs []model.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.triages++
	if c.pending == nil {
		c.pending = map[string]map[uint32]int{}
	}
	for _, m := range msgs {
		if c.pending[m.ID.Folder] == nil {
			c.pending[m.ID.Folder] = map[uint32]int{}
		}
		c.pending[m.ID.Folder][m.ID.UID]++
	}
}

// release ends hold.
func (c *cache) release(msgs []model.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.triages++
	for _, m := range msgs {
		p := c.pending[m.ID.Folder]
		if p[m.ID.UID]--; p[m.ID.UID] <= 0 {
			delete(p, m.ID.UID)
		}
	}
}

// unheld is missing without the uids a triage action is under way on,
// and the triage count it was taken at (for fill).
func (c *cache) unheld(folder string, missing [][2]uint32) ([][2]uint32, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	held := slices.Sorted(maps.Keys(c.pending[folder]))
	var out [][2]uint32
	for _, r := range missing {
		lo := r[0]
		for _, uid := range held {
			if uid < lo || uid > r[1] {
				continue
			}
			if lo < uid {
				out = append(out, [2]uint32{lo, uid - 1})
			}
			lo = uid + 1
		}
		if lo <= r[1] && lo != 0 {
			out = append(out, [2]uint32{lo, r[1]})
		}
	}
	return out, c.triages
}

// fill stores a gap's messages, unless a triage action began or ended
// since triages was taken.
func (c *cache) fill(folder string, uidValidity uint32, triages uint64, msgs []model.Message) (int, bool) {
	c.writing.Lock()
	defer c.writing.Unlock()
	c.mu.Lock()
	same := c.triages == triages
	c.mu.Unlock()
	if !same {
		return 0, false
	}
	c.forget()
	n, err := c.st.Fill(context.Background(), c.key, folder, uidValidity, msgs)
	c.noteWrite(err)
	return n, err == nil
}

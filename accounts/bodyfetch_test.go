package accounts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
	"unibox/model"
	"unibox/model/query"
)

// virtualClock is the fetch's time in tests. In auto mode a Sleep moves
// it at once (with a real millisecond for long ones, so an idle fetch
// does not spin); otherwise a Sleep waits until Advance.
type virtualClock struct {
	mu       sync.Mutex
	now      time.Time
	auto     bool
	sleeping chan time.Duration // manual mode: a Sleep began
	wake     chan struct{}
}

func newVirtualClock(auto bool) *virtualClock {
	return &virtualClock{now: time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC), auto: auto,
		sleeping: make(chan time.Duration, 16), wake: make(chan struct{})}
}

func (c *virtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !c.auto {
		c.sleeping <- d
		select {
		case <-c.wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	} else if d >= time.Minute {
		time.Sleep(time.Millisecond)
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return nil
}

// Advance ends the Sleep under way (manual mode).
func (c *virtualClock) Advance() { c.wake <- struct{}{} }

// fetchLog collects a fetch's events.
type fetchLog struct {
	mu     sync.Mutex
	events []BodyEvent
	news   chan struct{}
}

func newFetchLog() *fetchLog { return &fetchLog{news: make(chan struct{}, 1)} }

func (l *fetchLog) observe(e BodyEvent) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
	select {
	case l.news <- struct{}{}:
	default:
	}
}

// until waits for an event of kind and returns every event so far.
func (l *fetchLog) until(t *testing.T, kind BodyEventKind) []BodyEvent {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		l.mu.Lock()
		evs := append([]BodyEvent(nil), l.events...)
		l.mu.Unlock()
		for _, e := range evs {
			if e.Kind == kind {
				return evs
			}
		}
		select {
		case <-l.news:
		case <-deadline:
			t.Fatalf("no %s event; events: %v", kind, evs)
		}
	}
}

func (l *fetchLog) of(kind BodyEventKind) []BodyEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []BodyEvent
	for _, e := range l.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// seedDated puts a message dated age ago into INBOX with a body that
// holds word, and returns nothing: the store learns it by syncing.
func seedDated(t *testing.T, r storedRig, word string, age time.Duration, size int) {
	t.Helper()
	body := word + " " + strings.Repeat("filler ", size/7)
	r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", To: "me@example.org", Subject: "about " + word,
		Date: time.Now().Add(-age), Body: body}.Bytes())
}

func syncInbox(t *testing.T, a *Account) {
	t.Helper()
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
}

// hasBody reports whether the store holds the body of the INBOX message
// whose subject is "about word".
func hasBody(t *testing.T, r storedRig, word string) bool {
	t.Helper()
	a := r.set.Accounts[0]
	id := findSubject(t, r, "about "+word)
	_, err := r.st.Body(context.Background(), a.cache.key, id)
	if errors.Is(err, store.ErrNotStored) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

func findSubject(t *testing.T, r storedRig, subject string) model.MessageID {
	t.Helper()
	page, _, err := r.set.Accounts[0].Stored().Cached(context.Background(), "", 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range page.Messages {
		if m.Subject == subject {
			return m.ID
		}
	}
	t.Fatalf("no stored row %q", subject)
	return model.MessageID{}
}

// searchHits is what the store's search finds for q in the account.
func searchHits(t *testing.T, r storedRig, q string) int {
	t.Helper()
	n, err := query.Parse(q, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Search(context.Background(), []*Stored{r.set.Accounts[0].Stored()}, n, SearchOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Hits)
}

// cache_bodies decides which bodies the background fetch stores: an age
// the mail newer than it, true all of it, false none (and the file holds
// no body's text, even of a message opened). The fetched bodies are
// found by a search's words, through the real serve-imap child.
func TestBodyFetchFollowsCacheBodies(t *testing.T) {
	ages := map[string]time.Duration{"dayold": 24 * time.Hour, "weekold": 10 * 24 * time.Hour, "monthold": 40 * 24 * time.Hour, "yearold": 100 * 24 * time.Hour}
	for _, tt := range []struct {
		name   string
		keep   config.Bodies
		stored []string
	}{
		{"30d", config.Bodies{Keep: config.BodiesNewer, Age: 30 * 24 * time.Hour}, []string{"dayold", "weekold"}},
		{"true", config.Bodies{Keep: config.BodiesAll}, []string{"dayold", "weekold", "monthold", "yearold"}},
		{"false", config.Bodies{Keep: config.BodiesNone}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newStoredRig(t, config.Store{CacheBodies: tt.keep, CacheBodiesMaxMB: 500, BodyFetchKBps: 1024}, memimap.Options{})
			for word, age := range ages {
				seedDated(t, r, word, age, 100)
			}
			a := r.set.Accounts[0]
			syncInbox(t, a)
			if !tt.keep.Stored() {
				if _, err := a.Get(context.Background(), findSubject(t, r, "about dayold")); err != nil {
					t.Fatal(err)
				}
			}
			log := newFetchLog()
			stop := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
			if tt.keep.Stored() {
				log.until(t, BodyIdle)
			} else {
				log.until(t, BodyDropped)
			}
			stop()
			for word := range ages {
				want := strings.Contains(strings.Join(tt.stored, " "), word)
				if got := hasBody(t, r, word); got != want {
					t.Errorf("body of %s stored: %v, want %v", word, got, want)
				}
				if got := searchHits(t, r, "body:"+word); got != map[bool]int{true: 1, false: 0}[want] {
					t.Errorf("search %s: %d hits, want body found %v", word, got, want)
				}
				if got := searchHits(t, r, "subject:"+word); got != 1 {
					t.Errorf("search subject:%s: %d hits: the row is not searchable", word, got)
				}
			}
			if !tt.keep.Stored() {
				r.st.Close()
				for _, suffix := range []string{"", "-wal"} {
					data, err := os.ReadFile(r.path + suffix)
					if err != nil && !os.IsNotExist(err) {
						t.Fatal(err)
					}
					if bytes.Contains(data, []byte("filler")) {
						t.Errorf("store%s holds a body's text with cache_bodies = false", suffix)
					}
				}
			}
		})
	}
}

// cache_bodies_max_mb: the newest mail's bodies are kept, the oldest
// dropped first, their rows staying searchable by their headers; once a
// body of the batch being fetched does not fit, the fetch stops walking
// into older mail (it would only push newer bodies out).
func TestBodyFetchStopsAtTheCap(t *testing.T) {
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 1, BodyFetchKBps: 1024}, memimap.Options{})
	const n, size = 14, 150 << 10 // six bodies fit in 1 MB
	for i := range n {
		seedDated(t, r, fmt.Sprintf("msg%02d", i), time.Duration(i+1)*24*time.Hour, size)
	}
	a := r.set.Accounts[0]
	syncInbox(t, a)
	log := newFetchLog()
	stop := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
	log.until(t, BodyFull)
	log.until(t, BodyIdle)
	stop()
	for i := range n {
		word := fmt.Sprintf("msg%02d", i)
		if got, want := hasBody(t, r, word), i < 6; got != want {
			t.Errorf("body of %s (%d days old) stored: %v, want %v", word, i+1, got, want)
		}
		if searchHits(t, r, "subject:"+word) != 1 {
			t.Errorf("the row of %s is gone with its body", word)
		}
	}
	if total, err := r.st.BodyBytes(context.Background()); err != nil || total > 1<<20 {
		t.Errorf("stored bodies %d bytes (%v), over the cap", total, err)
	}
	if got := len(log.of(BodyBatch)); got > 8 {
		t.Errorf("%d batches: the fetch went on into older mail past the cap", got)
	}
}

// body_fetch_kbps: the bytes read from the server stay within the rate
// on the fetch's clock (a call may start only once the bytes before it
// are paid for), and the pace is no slower than it needs to be.
func TestBodyFetchKeepsToTheRate(t *testing.T) {
	const kbps = 16
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: kbps}, memimap.Options{})
	for i := range 12 {
		seedDated(t, r, fmt.Sprintf("rate%02d", i), time.Duration(i+1)*time.Hour, 6<<10)
	}
	syncInbox(t, r.set.Accounts[0])
	log := newFetchLog()
	stop := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
	log.until(t, BodyIdle)
	stop()
	batches := log.of(BodyBatch)
	if len(batches) < 4 {
		t.Fatalf("%d batches, want several", len(batches))
	}
	rate := float64(kbps << 10)
	var paid int64
	stored := 0
	for i, b := range batches {
		elapsed := b.At.Sub(batches[0].At).Seconds()
		owed := float64(paid) / rate
		if elapsed < owed-0.001 {
			t.Errorf("batch %d at %.3fs, but %d bytes before it need %.3fs at %d KB/s", i, elapsed, paid, owed, kbps)
		}
		if elapsed > owed+0.5 {
			t.Errorf("batch %d at %.3fs, %d bytes before it need only %.3fs: slower than the rate", i, elapsed, paid, owed)
		}
		paid += b.Bytes
		stored += b.Stored
	}
	if stored != 12 {
		t.Errorf("%d bodies stored, want 12", stored)
	}
}

// A throttling answer (NO [LIMIT]) pauses the fetch for a minute on its
// clock, said in the account's history (once for a run of them), and the
// fetch goes on after.
func TestBodyFetchPausesWhenThrottled(t *testing.T) {
	faults := &memimap.Faults{}
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: 1024},
		memimap.Options{Faults: faults}, func(cfg *config.Config) {
			cfg.Resilience.BackoffBase = config.Duration{Duration: 10 * time.Millisecond}
			cfg.Resilience.BackoffCap = config.Duration{Duration: 10 * time.Millisecond}
		})
	for i := range 3 {
		seedDated(t, r, fmt.Sprintf("slow%d", i), time.Duration(i+1)*time.Hour, 100)
	}
	a := r.set.Accounts[0]
	syncInbox(t, a)
	faults.ThrottleFetch(3)
	log := newFetchLog()
	stop := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
	log.until(t, BodyIdle)
	stop()
	paused := log.of(BodyPaused)
	if len(paused) == 0 {
		t.Fatal("no pause after a throttling answer")
	}
	if p := paused[0]; p.Pause != time.Minute || conn.ClassOf(p.Err) != conn.ClassThrottled {
		t.Errorf("first pause %v (%v, class %s), want a minute on a throttled answer", p.Pause, p.Err, conn.ClassOf(p.Err))
	}
	batches := log.of(BodyBatch)
	if len(batches) == 0 || batches[0].At.Sub(paused[0].At) < time.Minute {
		t.Fatalf("batches %v after the pause at %v: sooner than a minute", batches, paused[0].At)
	}
	for i := range 3 {
		if !hasBody(t, r, fmt.Sprintf("slow%d", i)) {
			t.Errorf("slow%d not fetched after the pause", i)
		}
	}
	// Three throttled answers in a row: three pauses, one history line.
	if len(paused) < 3 {
		t.Errorf("%d pauses for three throttled answers", len(paused))
	}
	if hist := fmt.Sprint(a.hist.Recent(100)); strings.Count(hist, "bodies: paused for 1m0s") != 1 {
		t.Errorf("the history should say the pause once: %v", hist)
	}
}

// A person's call goes first: while it is under way (held at the server
// here), the fetch's next batch waits at the account's gate instead of
// queueing at the server, and goes once the person's call has ended.
func TestPersonsCallOvertakesTheBodyFetch(t *testing.T) {
	faults := &memimap.Faults{}
	var wire syncBuffer
	// 64 KB/s: a call reads 16 KB, one of these messages.
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: 64},
		memimap.Options{Faults: faults, DebugWriter: &wire})
	for i := range 6 {
		seedDated(t, r, fmt.Sprintf("queue%d", i), time.Duration(i+1)*time.Hour, 10<<10)
	}
	a := r.set.Accounts[0]
	syncInbox(t, a)
	clock := newVirtualClock(false)
	log := newFetchLog()
	stop := r.set.FetchBodies(BodyFetchOptions{Clock: clock, Observe: log.observe})
	defer stop()
	<-clock.sleeping // the first batch is done; the fetch waits for its pace
	if len(log.of(BodyBatch)) != 1 {
		t.Fatalf("events before the pause: %v", log.of(BodyBatch))
	}
	hold := faults.HoldNext("FETCH")
	opened := make(chan error, 1)
	go func() {
		_, err := a.Get(context.Background(), findSubject(t, r, "about queue5"))
		opened <- err
	}()
	<-hold.Held // the person's message is being fetched, slowly
	mark := wire.Len()
	clock.Advance()
	deadline := time.Now().Add(30 * time.Second)
	for a.adapter.Yielding() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the fetch's next batch did not wait for the person's call (busy %d, events %v)", a.adapter.Busy(), log.of(BodyBatch))
		}
		time.Sleep(time.Millisecond)
	}
	if strings.Contains(wire.From(mark), "BODYSTRUCTURE") {
		t.Fatal("the fetch reached the server while the person's call was under way")
	}
	hold.Release(true)
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	for len(log.of(BodyBatch)) < 2 {
		select {
		case <-clock.sleeping:
			clock.Advance()
		case <-log.news:
		case <-time.After(30 * time.Second):
			t.Fatal("the fetch did not go on after the person's call")
		}
	}
}

// syncBuffer is a goroutine-safe wire log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func (s *syncBuffer) From(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()[n:]
}

// A third-party MCP server has no batch fetch: its account fetches no
// body in the background, its history says so, and a search for text
// says its bodies are searched only where opened (a header search does
// not).
func TestMCPAccountFetchesNoBodies(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir + "/store.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ac := config.Account{Name: "Thirdparty", Kind: config.KindMCP, Command: []string{testExe(t)},
		Tools: map[string]config.ToolCall{"list": {Tool: "list_mail"}},
		Env:   map[string]string{"UNIBOX_TEST_MCP_SEND": dir, "GORACE": "atexit_sleep_ms=0"}}
	cfg := &config.Config{Accounts: []config.Account{ac}, Store: config.Defaults().Store}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	set, err := Open(cfg, Options{Exe: testExe(t), ExeArgs: []string{}, ChildEnv: []string{}, Store: Have(st)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	a := set.Accounts[0]
	if _, err := a.List(context.Background(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	log := newFetchLog()
	stop := set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
	log.until(t, BodyUnsupported)
	stop()
	if hist := fmt.Sprint(a.hist.Recent(100)); !strings.Contains(hist, "bodies: not fetched in the background") {
		t.Errorf("history: %s", hist)
	}
	for q, want := range map[string]bool{"lunch": true, "subject:lunch": false} {
		n, err := query.Parse(q, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		res, err := Search(context.Background(), []*Stored{a.Stored()}, n, SearchOptions{Limit: 10})
		if err != nil || len(res.Hits) != 1 {
			t.Fatalf("search %q: %+v %v", q, res, err)
		}
		said := strings.Contains(fmt.Sprint(res.Uncovered), "bodies are searched only where opened")
		if said != want {
			t.Errorf("search %q: uncovered %v, want the bodies named: %v", q, res.Uncovered, want)
		}
	}
}

// Two faces on one store (the TUI and `unibox mcp` at once) fetch an
// account's bodies once, at one pace: while one fetches, the other waits
// and says why; once the first stops, the other takes over and fetches
// what came since.
func TestOneFaceAtATimeFetchesBodies(t *testing.T) {
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: 1024}, memimap.Options{})
	for i := range 4 {
		seedDated(t, r, fmt.Sprintf("early%02d", i), time.Duration(i+1)*time.Hour, 100)
	}
	syncInbox(t, r.set.Accounts[0])
	second := r.another(t)
	firstLog, secondLog := newFetchLog(), newFetchLog()
	stopFirst := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: firstLog.observe})
	firstLog.until(t, BodyBatch) // the first holds the claim
	stopSecond := second.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: secondLog.observe})
	defer stopSecond()
	secondLog.until(t, BodyElsewhere)
	firstLog.until(t, BodyIdle)
	if n := len(secondLog.of(BodyBatch)); n != 0 {
		t.Fatalf("the second face fetched %d batches while the first fetched", n)
	}
	stopFirst()
	for i := range 2 {
		seedDated(t, r, fmt.Sprintf("later%02d", i), time.Duration(i+1)*time.Minute, 100)
	}
	syncInbox(t, second.Accounts[0])
	secondLog.until(t, BodyBatch)
	secondLog.until(t, BodyIdle)
	for _, word := range []string{"early00", "early03", "later00", "later01"} {
		if !hasBody(t, r, word) {
			t.Errorf("no body of %s", word)
		}
	}
	if h := fmt.Sprint(second.Accounts[0].hist.Recent(100)); !strings.Contains(h, "bodies: another unibox") {
		t.Errorf("the waiting face's history does not say why it waited:\n%s", h)
	}
}

// The background fetch stores each message's list fields with its text,
// so the contacts index tells a list and a newsletter from a person
// without the message ever being opened (before, only an opened one
// marked its list).
func TestBodyFetchMarksListsForContacts(t *testing.T) {
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: 1024}, memimap.Options{})
	r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", To: "dev@lists.example.org", Subject: "on the list",
		Date: time.Now().Add(-time.Hour), Body: "hello list", Headers: map[string]string{"List-Id": "Dev <dev.lists.example.org>"}}.Bytes())
	r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: "Shop <news@shop.example>", To: "me@example.org", Subject: "sale",
		Date: time.Now().Add(-2 * time.Hour), Body: "buy", Headers: map[string]string{"List-Unsubscribe": "<https://shop.example/u>"}}.Bytes())
	r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", To: "me@example.org", Subject: "lunch?",
		Date: time.Now().Add(-3 * time.Hour), Body: "noon"}.Bytes())
	a := r.set.Accounts[0]
	syncInbox(t, a)
	log := newFetchLog()
	stop := r.set.FetchBodies(BodyFetchOptions{Clock: newVirtualClock(true), Observe: log.observe})
	log.until(t, BodyIdle)
	stop()
	c, err := r.st.Contacts(context.Background(), []store.Key{a.cache.key})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Bulk["dev@lists.example.org"] || !c.Bulk["news@shop.example"] || c.Bulk["bo@example.org"] || c.Bulk["ann@example.org"] {
		t.Fatalf("bulk addresses after the background fetch: %v", c.Bulk)
	}
}

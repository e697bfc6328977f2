package rulebook

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Proposals wait until a person answers; the hour's cap holds across
// callers racing for the last one, and a settled proposal cannot be
// settled again (two faces answering at once).
func TestProposalsCappedAndSettledOnce(t *testing.T) {
	b := New(filepath.Join(t.TempDir(), "rules.db"))
	defer b.Close()
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ok, refused int
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := b.Propose(ctx, Proposal{Name: "n", Rule: "[[rule]]", Reason: "r"}, 5, now)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrProposalLimit):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != 5 || refused != 3 {
		t.Fatalf("%d kept, %d refused; want 5 and 3 (cap 5 an hour)", ok, refused)
	}
	if id, err := b.Propose(ctx, Proposal{Name: "later"}, 5, now.Add(61*time.Minute)); err != nil || id != 6 {
		t.Fatalf("an hour later: %d, %v", id, err)
	}
	if n, err := b.PendingProposals(ctx); err != nil || n != 6 {
		t.Fatalf("pending %d, %v", n, err)
	}
	if err := b.Answer(ctx, 1, Accepted, now); err != nil {
		t.Fatal(err)
	}
	if err := b.Answer(ctx, 1, Rejected, now); !errors.Is(err, ErrNoProposal) {
		t.Fatalf("settling twice: %v", err)
	}
	if _, err := b.Proposal(ctx, 1); !errors.Is(err, ErrNoProposal) {
		t.Fatalf("a settled proposal is still pending: %v", err)
	}
	list, err := b.Proposals(ctx, "")
	if err != nil || len(list) != 6 || list[0].State != Accepted || !list[0].Decided.Equal(now) || list[1].State != Pending {
		t.Fatalf("proposals %+v, %v", list, err)
	}
}

// At most MaxPending wait: an agent that keeps proposing over hours
// cannot bury the review.
func TestProposalsPendingBounded(t *testing.T) {
	b := New(filepath.Join(t.TempDir(), "rules.db"))
	defer b.Close()
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for i := range MaxPending {
		if _, err := b.Propose(ctx, Proposal{Name: "n"}, 1, now.Add(time.Duration(i)*2*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Propose(ctx, Proposal{Name: "n"}, 1, now.Add(1000*time.Hour)); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("past MaxPending: %v", err)
	}
}

package accounts

import (
	"context"
	"sync"
	"time"

	"unibox/conn"
)

// Result is one account's outcome in a fan-out.
type Result[T any] struct {
	Account *Account
	Value   T
	Err     error
	Took    time.Duration
	// Status and At are the account as it was when its answer came, so a
	// face describes state, error and cooldown from one moment (see
	// Result.Health), not as they became while slower accounts still answered.
	Status conn.Status
	At     time.Time
}

// Fanout runs f on every account at once, each under its own deadline,
// and waits for all of them to settle (allSettled): a failure is a result,
// never an exception, and a hung account costs the others nothing. The
// results are in account order.
func Fanout[T any](ctx context.Context, accts []*Account, perAccount time.Duration, f func(context.Context, *Account) (T, error)) []Result[T] {
	out := make([]Result[T], len(accts))
	var wg sync.WaitGroup
	for i, a := range accts {
		wg.Go(func() {
			actx, cancel := ctx, context.CancelFunc(func() {})
			if perAccount > 0 {
				actx, cancel = context.WithTimeout(ctx, perAccount)
			}
			defer cancel()
			start := time.Now()
			v, err := f(actx, a)
			at := time.Now()
			out[i] = Result[T]{Account: a, Value: v, Err: err, Took: at.Sub(start), Status: a.Status(), At: at}
		})
	}
	wg.Wait()
	return out
}

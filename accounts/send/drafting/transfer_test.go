package drafting

import (
	"context"
	"testing"
	"time"

	"unibox/model"
)

// deadlineReader records how long each Part call was given.
type deadlineReader struct{ given []time.Duration }

func (d *deadlineReader) Part(ctx context.Context, _ model.MessageID, i int) (model.Part, error) {
	dl, _ := ctx.Deadline()
	d.given = append(d.given, time.Until(dl))
	return model.Part{Name: "a.bin", Data: []byte{byte(i)}}, nil
}

// sizedReader is a deadlineReader whose account states its part limit,
// as accounts.Sending does from its provider.Spec.
type sizedReader struct {
	deadlineReader
	limit int64
}

func (s *sizedReader) PartBytes() int64 { return s.limit }

// Each attachment gets the base bound plus the largest part's time on a
// slow link (128 KiB/s), the part limit being the reading account's own
// (its spec's, through PartSizer), not the caller's 1 s: the TUI and the
// agent no longer cut a transfer both halves below still allow for, and
// an account whose kind takes smaller parts is not waited on longer.
func TestPartsAreGivenTheirTransferTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    interface {
			PartReader
			givenTimes() []time.Duration
		}
		want time.Duration
	}{
		{"serve-imap's 25 MiB", &sizedReader{limit: 25 << 20}, 201 * time.Second},
		{"a spec's 1 MiB", &sizedReader{limit: 1 << 20}, 9 * time.Second},
		{"a reader that states no limit", &deadlineReader{}, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts, err := Parts(context.Background(), tc.r, model.MessageID{}, 2, time.Second)
			if err != nil || len(parts) != 2 || parts[1].Data[0] != 1 {
				t.Fatalf("parts %+v, %v", parts, err)
			}
			for i, g := range tc.r.givenTimes() {
				if g < tc.want-time.Second || g > tc.want {
					t.Errorf("part %d was given %v, want %v", i, g, tc.want)
				}
			}
		})
	}
	if got := AppendBound(time.Second, 50<<20); got != 401*time.Second {
		t.Errorf("AppendBound(1 s, 50 MiB) = %v, want 401 s", got)
	}
}

func (d *deadlineReader) givenTimes() []time.Duration { return d.given }

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

// Each attachment gets the base bound plus a 25 MiB part's time on a
// slow link (200 s at 128 KiB/s), not the caller's 1 s: the TUI and the
// agent no longer cut a transfer both halves below still allow for.
func TestPartsAreGivenTheirTransferTime(t *testing.T) {
	r := &deadlineReader{}
	parts, err := Parts(context.Background(), r, model.MessageID{}, 2, time.Second)
	if err != nil || len(parts) != 2 || parts[1].Data[0] != 1 {
		t.Fatalf("parts %+v, %v", parts, err)
	}
	for i, g := range r.given {
		if g < 200*time.Second || g > 202*time.Second {
			t.Errorf("part %d was given %v, want 1 s + 200 s", i, g)
		}
	}
	if got := AppendBound(time.Second, 50<<20); got != 401*time.Second {
		t.Errorf("AppendBound(1 s, 50 MiB) = %v, want 401 s", got)
	}
}

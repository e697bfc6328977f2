package compose

import (
	"slices"
	"testing"
)

// The memo draws again exactly when the text or the width changed, and a
// nil memo always draws.
func TestWrapMemo(t *testing.T) {
	draws := 0
	draw := func(s string) func() []string {
		return func() []string { draws++; return []string{s} }
	}
	w := &wrapMemo{}
	for _, step := range []struct {
		in    string
		width int
		draws int
	}{
		{"a", 80, 1}, {"a", 80, 1}, {"a", 60, 2}, {"b", 60, 3}, {"b", 60, 3}, {"a", 60, 4},
	} {
		if got := w.lines(step.in, step.width, draw(step.in)); !slices.Equal(got, []string{step.in}) || draws != step.draws {
			t.Fatalf("%q at %d: %v after %d draws, want %d", step.in, step.width, got, draws, step.draws)
		}
	}
	var none *wrapMemo
	none.lines("a", 80, draw("a"))
	none.lines("a", 80, draw("a"))
	if draws != 6 {
		t.Fatalf("a nil memo kept a drawing: %d draws", draws)
	}
}

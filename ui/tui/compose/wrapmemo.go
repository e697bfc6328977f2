package compose

// wrapMemo keeps a text as drawn at one width between frames. View draws
// the review on every message that reaches the TUI (a countdown's tick, a
// status line), and checking and wrapping the whole text each time was
// work done again for nothing: a 256 KB text took milliseconds a frame.
// The key is the text itself (equal strings compare by pointer first, so
// a hit costs nothing) and the width. A nil memo keeps nothing.
type wrapMemo struct {
	in    string
	width int
	out   []string
}

// lines is draw(), or what it gave last for the same text and width. The
// slice is shared: callers append it, never change it.
func (w *wrapMemo) lines(in string, width int, draw func() []string) []string {
	if w == nil {
		return draw()
	}
	if w.out == nil || w.width != width || w.in != in {
		w.in, w.width, w.out = in, width, draw()
	}
	return w.out
}

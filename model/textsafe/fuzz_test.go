package textsafe

import (
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// The fuzz targets pin the package's promise for arbitrary input. Their
// committed corpus (testdata/fuzz/...) holds the hostile examples from
// hostileSeeds and runs with every plain `go test`.

func FuzzLine(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s.text)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Line(in)
		if err := checkSafe(out, false); err != "" {
			t.Fatalf("Line(%q) = %q: %s", in, out, err)
		}
		if again := Line(out); again != out {
			t.Fatalf("Line not idempotent: %q -> %q -> %q", in, out, again)
		}
		if lineIsClean(in) != (out == in) {
			t.Fatalf("fast path disagrees on %q", in)
		}
		if len(out) > 0 && (out[0] == ' ' || out[len(out)-1] == ' ') {
			t.Fatalf("Line(%q) = %q is not trimmed", in, out)
		}
		cell := Cell(in)
		if err := checkSafe(cell, false); err != "" {
			t.Fatalf("Cell(%q) = %q: %s", in, cell, err)
		}
		if again := Cell(cell); again != cell {
			t.Fatalf("Cell not idempotent: %q -> %q -> %q", in, cell, again)
		}
	})
}

func FuzzBlock(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s.text)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Block(in)
		if err := checkSafe(out, true); err != "" {
			t.Fatalf("Block(%q) = %q: %s", in, out, err)
		}
		if again := Block(out); again != out {
			t.Fatalf("Block not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}

func FuzzFit(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s.text, 7)
	}
	f.Fuzz(func(t *testing.T, in string, w int) {
		w %= 200
		if got, want := Width(in), uniseg.StringWidth(in); got != want {
			t.Fatalf("Width(%q) = %d, uniseg says %d", in, got, want)
		}
		s := Line(in)
		out := Fit(s, w)
		if w <= 0 {
			if out != "" {
				t.Fatalf("Fit(%q, %d) = %q, want empty", s, w, out)
			}
			return
		}
		if !utf8.ValidString(out) {
			t.Fatalf("Fit(%q, %d) = %q: invalid UTF-8", s, w, out)
		}
		if got := Width(out); got != w && Width(ellipsis) <= w {
			t.Fatalf("Fit(%q, %d) = %q has width %d", s, w, out, got)
		}
	})
}

package tui

import (
	"strings"
	"testing"

	"unibox/model/textsafe"
)

// The plan is drawn whole, wrapped over the bottom of the body, however
// long its URI and however narrow the terminal; the frame keeps its size.
func TestUnsubscribeOverlayShowsAllOfIt(t *testing.T) {
	uri := "https://list.example/unsubscribe/" + strings.Repeat("a1b2c3", 30) + "?user=me%40example.org"
	box := "y to go, any other key cancels: unsubscribe: POST to " + uri
	for _, width := range []int{40, 80, 200} {
		body := strings.TrimSuffix(strings.Repeat(strings.Repeat("x", width)+"\n", 20), "\n")
		got := strings.Split(overlay(body, box, width), "\n")
		if len(got) != 20 {
			t.Fatalf("width %d: %d lines, want 20", width, len(got))
		}
		var text strings.Builder
		rule := -1
		for i, l := range got {
			if w := textsafe.Width(l); w != width {
				t.Fatalf("width %d: line %d is %d columns", width, i, w)
			}
			if strings.HasPrefix(l, "─") {
				rule = i
			} else if rule >= 0 {
				text.WriteString(l)
			}
		}
		if rule < 0 || strings.TrimRight(text.String(), " ") != box {
			t.Fatalf("width %d: the box reads %q", width, text.String())
		}
	}
}

func TestWrapCellsKeepsClusters(t *testing.T) {
	s := "日本語のリンク👩‍👩‍👧https://x.example/é"
	lines := wrapCells(s, 5)
	if strings.Join(lines, "") != s {
		t.Fatalf("lost text: %q", lines)
	}
	for _, l := range lines {
		if textsafe.Width(l) > 5 {
			t.Fatalf("line %q is %d columns", l, textsafe.Width(l))
		}
	}
}

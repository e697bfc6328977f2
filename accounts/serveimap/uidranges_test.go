package serveimap

import (
	"slices"
	"testing"

	"github.com/emersion/go-imap/v2"
)

func TestUIDRanges(t *testing.T) {
	rs := merge([][2]uint32{{9, 12}, {1, 3}, {4, 4}, {20, 20}, {11, 15}})
	if want := [][2]uint32{{1, 4}, {9, 15}, {20, 20}}; !slices.Equal(rs, want) {
		t.Fatalf("merge: %v, want %v", rs, want)
	}
	if got := clip(rs, 10); !slices.Equal(got, [][2]uint32{{10, 15}, {20, 20}}) {
		t.Fatalf("clip: %v", got)
	}
	if clip(rs, 21) != nil || count(rs) != 12 {
		t.Fatalf("clip above all: %v; count %d", clip(rs, 21), count(rs))
	}
	for _, tt := range []struct {
		limit int
		want  imap.UIDSet
	}{
		{1, imap.UIDSet{{Start: 20, Stop: 20}}},
		{4, imap.UIDSet{{Start: 13, Stop: 15}, {Start: 20, Stop: 20}}},
		{8, imap.UIDSet{{Start: 9, Stop: 15}, {Start: 20, Stop: 20}}},
		{10, imap.UIDSet{{Start: 3, Stop: 4}, {Start: 9, Stop: 15}, {Start: 20, Stop: 20}}},
		{50, imap.UIDSet{{Start: 1, Stop: 4}, {Start: 9, Stop: 15}, {Start: 20, Stop: 20}}},
	} {
		if got := top(rs, tt.limit); !slices.Equal(got, tt.want) {
			t.Errorf("top %d: %v, want %v", tt.limit, got, tt.want)
		}
	}
}

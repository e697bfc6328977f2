package textsafe

import (
	"strings"
	"testing"
)

var sink string

// cleanSubject is a typical 100-character subject that needs no change.
var cleanSubject = "Re: [unibox-dev] Quarterly planning notes for the mail client, draft 3 (please review by Friday)...."

func BenchmarkLine(b *testing.B) {
	hostile := strings.Repeat("a\x1b[31mb\u202ec\t", 12)
	unicodeClean := "Réunion d'équipe: 日本語の件名 👍 planning for next week's release"
	for _, bc := range []struct{ name, in string }{
		{"clean-ascii-100", cleanSubject},
		{"clean-unicode", unicodeClean},
		{"hostile", hostile},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.in)))
			for b.Loop() {
				sink = Line(bc.in)
			}
		})
	}
}

func BenchmarkBlock(b *testing.B) {
	body := strings.Repeat("Hello,\tthis is a line of a message body with a \x1b[1mbold\x1b[0m word.\r\n", 500)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		sink = Block(body)
	}
}

func BenchmarkFit(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = Fit(cleanSubject, 40)
	}
}

func TestLineCleanDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { sink = Line(cleanSubject) }); n != 0 {
		t.Fatalf("Line on a clean subject allocates %v times, want 0", n)
	}
	if len(cleanSubject) != 100 {
		t.Fatalf("cleanSubject is %d bytes, want 100", len(cleanSubject))
	}
}

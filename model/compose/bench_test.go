package compose

import (
	"strings"
	"testing"

	"unibox/model"
)

// BenchmarkPrepare: a reply quoting a 20 KB text, and a forward carrying a
// 1 MB attachment (base64 on the wire).
func BenchmarkPrepare(b *testing.B) {
	o := Original{MessageID: "m@h", From: bob, To: []model.Address{alice, carol}, Subject: "Réunion",
		Text: strings.Repeat("Grüße, a line of quoted text.\n", 700), Attachments: []Part{{Name: "a.bin", Type: "application/octet-stream", Data: make([]byte, 1<<20)}}}
	reply := Reply(o, self, true)
	fwd := withTo(Forward(o, self), dave)
	for _, bc := range []struct {
		name string
		d    Draft
	}{{"reply-20KB", reply}, {"forward-1MB", fwd}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.d.Prepare(now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

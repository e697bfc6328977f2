//go:build !race

package accounts

// This test moves about 30 MiB through JSON both ways: 2.7 s as it is,
// over 20 s under the race detector, which adds nothing here (the path
// is the same as the small messages' in mailer_test.go). .ci/run runs it
// without -race, in the benchmark smoke's step (one build of accounts).

import (
	"bytes"
	"context"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
)

// A forward of a big attachment: the message is larger than one MCP frame
// may be by default (16 MiB) on its way to the child, and the attachment's
// base64 is on its way back; both cross the real pipe, byte for byte.
func TestAccountLargeAppendAndPart(t *testing.T) {
	ctx := context.Background()
	// Generous bounds for a loaded machine: each call takes about a second.
	a, _ := sentAccount(t, nil, func(r *config.Resilience) {
		r.CallTimeout = config.Duration{Duration: 3 * time.Minute}
		r.IMAPCommandTimeout = config.Duration{Duration: 3 * time.Minute}
	})
	bin := make([]byte, 12<<20)
	for i := range bin {
		bin[i] = byte(i*31 + i>>11)
	}
	raw := imaptest.Mail{From: "sam@example.org", To: "ann@example.org", Subject: "Fwd: plans", Date: time.Now(), MessageID: "big@example.org",
		Body: "forwarded", Attach: map[string][]byte{"plan.bin": bin}}.Bytes()
	if len(raw) <= 16<<20 {
		t.Fatalf("the message is %d bytes: not over one default frame", len(raw))
	}
	id, err := a.Append(ctx, "", "sent", raw, []string{`\Seen`}, time.Time{})
	if err != nil {
		t.Fatalf("append %d bytes: %v", len(raw), err)
	}
	part, err := a.Part(ctx, id, 0)
	if err != nil || !bytes.Equal(part.Data, bin) {
		t.Fatalf("part of %d bytes: %v, %d bytes back", len(bin), err, len(part.Data))
	}
}

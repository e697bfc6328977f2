package compose

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

// newMessageID is "<random>@<domain of from>" without the <>: 128 random
// bits, so two drafts never share one. go-message's GenerateMessageID uses
// the machine's hostname, which leaks it and is often no domain at all;
// spam filters like the id on the sender's domain.
func newMessageID(from string) (string, error) {
	at := strings.LastIndexByte(from, '@')
	if at < 0 || cleanID("x@"+from[at+1:]) == "" {
		return "", fmt.Errorf("compose: From %q has no domain for the Message-ID", from)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("compose: Message-ID: %w", err)
	}
	return hex.EncodeToString(b[:]) + "@" + from[at+1:], nil
}

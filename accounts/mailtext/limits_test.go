package mailtext

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// bigAttachment builds a message with a short body and an attachment of n
// bytes, base64-encoded.
func bigAttachment(n int) []byte {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	return []byte(crlf("From: a@x.org", "Subject: big", "Content-Type: multipart/mixed; boundary=BOUNDARY", "",
		"--BOUNDARY", "Content-Type: text/plain", "", "see attachment",
		"--BOUNDARY", "Content-Type: application/octet-stream; name=big.bin",
		"Content-Disposition: attachment; filename=big.bin", "Content-Transfer-Encoding: base64", "",
		b64Lines(data), "--BOUNDARY--", ""))
}

func TestParseBigAttachmentStreams(t *testing.T) {
	const size = 5_000_000
	raw := bigAttachment(size)
	var m Message
	allocated := allocatedBytes(func() { m = Parse(bytes.NewReader(raw), Options{}) })
	want := []Attachment{{"big.bin", "application/octet-stream", size}}
	if len(m.Attachments) != 1 || m.Attachments[0] != want[0] {
		t.Fatalf("Attachments = %+v, want %+v", m.Attachments, want)
	}
	if m.Text != "see attachment" || len(m.Problems) != 0 {
		t.Fatalf("Text = %q, Problems = %q", m.Text, m.Problems)
	}
	// Buffers are a few tens of KiB; holding the attachment would be 5 MB.
	if allocated > 512<<10 {
		t.Fatalf("Parse allocated %d bytes for a %d-byte attachment", allocated, size)
	}
	t.Logf("Parse allocated %d bytes", allocated)
}

// allocatedBytes returns how many bytes f allocated on the heap.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestParseMaxText(t *testing.T) {
	body := strings.Repeat("0123456789", 1000) // 10,000 bytes
	raw := crlf("Subject: long", "", body)
	m := Parse(strings.NewReader(raw), Options{MaxText: 1000})
	if !strings.HasSuffix(m.Text, truncatedMark) {
		t.Fatalf("Text does not end with the truncation mark: %q", m.Text[max(0, len(m.Text)-40):])
	}
	if n := len(m.Text) - len(truncatedMark); n != 1000 {
		t.Fatalf("kept %d bytes, want 1000", n)
	}
	// A cut inside a multi-byte character must not turn the text to Latin-1.
	raw = crlf("Subject: long", "", strings.Repeat("é", 1000))
	m = Parse(strings.NewReader(raw), Options{MaxText: 1001})
	if want := strings.Repeat("é", 500) + truncatedMark; m.Text != want {
		t.Fatalf("Text = %q..., want %q...", m.Text[:20], want[:20])
	}
	// Tabs can make Block's output longer than its input: still capped.
	raw = crlf("Subject: tabs", "", strings.Repeat("\tx", 1000))
	m = Parse(strings.NewReader(raw), Options{MaxText: 1000})
	if n := len(m.Text) - len(truncatedMark); n > 1000 {
		t.Fatalf("kept %d bytes, want at most 1000", n)
	}
	// The default is 256 KiB.
	raw = crlf("Subject: huge", "", strings.Repeat("abcdefgh\r\n", 40000))
	m = parseString(raw)
	if n := len(m.Text) - len(truncatedMark); n > DefaultMaxText || !strings.HasSuffix(m.Text, truncatedMark) {
		t.Fatalf("default cap: kept %d bytes", n)
	}
}

func TestParseHTMLTruncated(t *testing.T) {
	raw := crlf("Content-Type: text/html", "", strings.Repeat("<p>paragraph</p>", 10000))
	m := Parse(strings.NewReader(raw), Options{MaxText: 100})
	if !m.FromHTML || !strings.HasSuffix(m.Text, truncatedMark) || len(m.Text) > 100+len(truncatedMark) {
		t.Fatalf("FromHTML = %v, Text = %q", m.FromHTML, m.Text)
	}
}

func TestParseManyParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("Content-Type: multipart/mixed; boundary=b\r\n\r\n")
	for range maxParts + 10 {
		b.WriteString("--b\r\nContent-Type: image/png\r\n\r\nx\r\n")
	}
	b.WriteString("--b--\r\n")
	m := parseString(b.String())
	if len(m.Attachments) != maxAttachments {
		t.Fatalf("listed %d attachments, want %d", len(m.Attachments), maxAttachments)
	}
	if !m.hasProblem("too many attachments") || !m.hasProblem("too many MIME parts") {
		t.Fatalf("Problems = %q", m.Problems)
	}
}

func TestParseHugeHeader(t *testing.T) {
	raw := "Subject: s\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\nX-After: skipped\r\n\r\nbody"
	m := parseString(raw)
	if m.Text != "body" || m.header("Subject") != "s" || m.header("X-After") != "" {
		t.Fatalf("Text = %q, headers = %q", m.Text, m.Headers)
	}
	if !m.hasProblem("header too large") {
		t.Fatalf("Problems = %q", m.Problems)
	}
	// Many continuation lines must not take quadratic time.
	raw = "Subject: s" + strings.Repeat("\r\n x", 300000) + "\r\n\r\nbody"
	if m := parseString(raw); m.Text != "body" {
		t.Fatalf("Text = %q", m.Text)
	}
}

func TestParseTooManyFields(t *testing.T) {
	raw := strings.Repeat("X-A: 1\r\n", maxFields+5) + "\r\nbody"
	m := parseString(raw)
	if len(m.Headers) != maxFields || m.Text != "body" || !m.hasProblem("too many header fields") {
		t.Fatalf("%d headers, Text %q, Problems %q", len(m.Headers), m.Text, m.Problems)
	}
}

func TestParseDateAndAddressesOfParsedHeaders(t *testing.T) {
	m := parseString(simple)
	if _, ok := Date(m.header("Date")); !ok {
		t.Errorf("Date(%q) failed", m.header("Date"))
	}
	if got := Addresses(m.header("From")); len(got) != 1 || got[0].Address != "alice@example.com" {
		t.Errorf("Addresses = %q", got)
	}
	bad := parseString(crlf("Date: yesterday-ish", "", "x"))
	if _, ok := Date(bad.header("Date")); ok {
		t.Errorf("invalid Date parsed")
	}
}

func TestParseHugeMaxText(t *testing.T) {
	m := Parse(strings.NewReader(crlf("Content-Type: text/html", "", "<p>x</p>")), Options{MaxText: int(^uint(0) >> 1)})
	if m.Text != "x" {
		t.Fatalf("Text = %q", m.Text)
	}
	m = Parse(strings.NewReader(simple), Options{MaxText: int(^uint(0) >> 1)})
	if m.Text != "Hello Bob,\n\nsee you there." {
		t.Fatalf("Text = %q", m.Text)
	}
}

func TestProblemsBounded(t *testing.T) {
	// go-message quotes the whole offending line in its error.
	raw := crlf("Content-Type: multipart/mixed; boundary=b", "", "--b", "", "x",
		"--b-"+strings.Repeat("z", 5000), "--b--")
	m := parseString(raw)
	if m.Text != "x" || !m.hasProblem("malformed multipart") {
		t.Fatalf("Text %q, Problems %q", m.Text, m.Problems)
	}
	for _, p := range m.Problems {
		if len(p) > maxProblemLen {
			t.Fatalf("problem of %d bytes: %.60q…", len(p), p)
		}
	}
}

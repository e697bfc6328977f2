package imaptest

import (
	"bytes"
	"embed"
	"encoding/base64"
	"path"
	"sort"
)

//go:embed testdata/hostile/*.eml
var hostileFS embed.FS

// Named is one message of a corpus.
type Named struct {
	Name string
	Raw  []byte
}

// HostileCorpus is the committed corpus of hostile mail (escape sequences,
// bidi overrides, odd charsets, broken MIME, NUL bytes, …) plus a
// generated message with a 5 MB attachment (generated, not committed, to
// keep the repository small; it is the same bytes every time).
func HostileCorpus() []Named {
	entries, _ := hostileFS.ReadDir("testdata/hostile")
	var out []Named
	for _, e := range entries {
		raw, err := hostileFS.ReadFile(path.Join("testdata/hostile", e.Name()))
		if err == nil {
			out = append(out, Named{Name: e.Name(), Raw: raw})
		}
	}
	out = append(out, Named{Name: "22-five-mb-attachment.eml", Raw: bigAttachment(5 << 20)})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func bigAttachment(size int) []byte {
	data := bytes.Repeat([]byte("unibox-5MB-"), size/11+1)[:size]
	var b bytes.Buffer
	b.WriteString("From: Big <big@example.net>\r\nTo: sam@example.org\r\nSubject: A 5 MB attachment\r\n" +
		"Date: Mon, 30 Nov 2026 10:00:00 +0000\r\nMessage-ID: <big@hostile.test>\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"BIG\"\r\n\r\n--BIG\r\nContent-Type: text/plain\r\n\r\nsee the attachment\r\n" +
		"--BIG\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"big.bin\"\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\n")
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n--BIG--\r\n")
	return b.Bytes()
}

package mailtext

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// field is one raw header field: the name as written and the unfolded,
// still encoded value.
type field struct {
	name, value string
}

// fields is a header block in order. Get makes it usable where a
// go-message textproto.Header is.
type fields []field

// Get returns the value of the first field named k, ignoring case.
func (fs fields) Get(k string) string {
	for _, f := range fs {
		if strings.EqualFold(f.name, k) {
			return f.value
		}
	}
	return ""
}

// Limits on a header block: beyond them the header is cut (and the cut
// reported) rather than held in memory.
const (
	maxHeaderBytes = 1 << 20
	maxFields      = 2000
)

// readHeader reads a header block tolerantly and returns it with the reader
// positioned at the body. go-message's reader rejects the whole message for
// one malformed line; here:
//   - a leading mbox "From " line is skipped;
//   - a continuation line with no field to continue is dropped;
//   - a line that is not a header field ends the header, and is returned as
//     the start of the body (mail whose blank line went missing);
//   - bytes past maxHeaderBytes are skipped until the blank line.
func readHeader(br *bufio.Reader) (fields, io.Reader, []string) {
	h := headerBuilder{}
	total := 0
	for first := true; ; first = false {
		line, err := readLine(br, maxHeaderBytes-total)
		total += len(line)
		trimmed := bytes.TrimRight(line, "\r\n")
		if len(trimmed) == 0 {
			if len(line) == 0 && err == nil {
				// readLine gave up on an over-long header: skip to the body.
				h.problem("header too large; the rest of it was skipped")
				skipToBlankLine(br)
			}
			return h.done(), br, h.problems
		}
		switch {
		case first && bytes.HasPrefix(trimmed, []byte("From ")):
			// mbox separator
		case trimmed[0] == ' ' || trimmed[0] == '\t':
			h.continuation(trimmed)
		default:
			name, value, ok := splitField(trimmed)
			if !ok {
				h.problem("malformed header line; the rest was read as the body")
				return h.done(), io.MultiReader(bytes.NewReader(line), br), h.problems
			}
			h.add(name, value)
		}
		if err != nil {
			return h.done(), br, h.problems
		}
	}
}

// headerBuilder collects fields, appending continuation lines to the
// current one in a buffer: joining strings instead would make a field folded
// over many thousands of lines cost quadratic time.
type headerBuilder struct {
	fs       fields
	name     string
	value    []byte
	open     bool // whether name/value hold a field not yet in fs
	dropped  bool // whether fields past maxFields were dropped
	problems []string
}

func (h *headerBuilder) problem(p string) { h.problems = append(h.problems, p) }

func (h *headerBuilder) add(name, value string) {
	h.finish()
	if len(h.fs) >= maxFields {
		if !h.dropped {
			h.problem("too many header fields; the rest were dropped")
			h.dropped = true
		}
		return
	}
	h.name, h.value, h.open = name, append(h.value[:0], value...), true
}

func (h *headerBuilder) continuation(line []byte) {
	switch {
	case h.open:
		h.value = append(h.value, line...)
	case len(h.fs) == 0 && !h.dropped:
		h.problem("header starts with a continuation line")
	}
}

func (h *headerBuilder) finish() {
	if h.open {
		h.fs = append(h.fs, field{h.name, strings.TrimSpace(string(h.value))})
		h.open = false
	}
}

func (h *headerBuilder) done() fields {
	h.finish()
	return h.fs
}

// splitField splits "Name: value" and checks the name: printable ASCII with
// no space or colon. Space before the colon is tolerated.
func splitField(line []byte) (name, value string, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	n := bytes.TrimRight(line[:i], " \t")
	if len(n) == 0 {
		return "", "", false
	}
	for _, c := range n {
		if c <= ' ' || c >= 0x7f {
			return "", "", false
		}
	}
	return string(n), strings.TrimSpace(string(line[i+1:])), true
}

// readLine reads one line including its "\n". It returns at most limit
// bytes; a longer line gives an empty result and a nil error, which the
// caller takes as "header too large".
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, nil
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// skipToBlankLine discards input up to and including the next empty line.
func skipToBlankLine(br *bufio.Reader) {
	atStart := false // whether the previous chunk ended a line
	for {
		chunk, err := br.ReadSlice('\n')
		if atStart && (string(chunk) == "\n" || string(chunk) == "\r\n") {
			return
		}
		atStart = len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

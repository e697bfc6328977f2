package compose

import "strings"

// Signature is what a message is signed with and where it goes. The
// caller picks it for the From the message goes out from (an alias may
// have its own) and has checked its text (CheckShowable); compose only
// places it.
type Signature struct {
	Text string // without the "-- " line; "" signs nothing
	// Above puts it, in an answer, above what is quoted (a reply's
	// attribution and quote, a forward's block) instead of at the end.
	Above bool
}

// SignatureLine is the line a signature goes under: dash, dash, space
// (RFC 3676 4.3), which mail readers know to leave out of a quote.
const SignatureLine = "-- "

// Signed is a body made of what the writer writes (written, without its
// last line end: "" when a person has yet to write) and what an answer
// quotes under it (quoted: Quoted(o), or a forward's block; "" in a new
// message), with sig under a "-- " line: at the end, or with sig.Above
// right above quoted, a blank line on each side. Unsigned it is written,
// then a line end and quoted when there is one: the body as it always was.
func Signed(written, quoted string, sig Signature) string {
	text := strings.TrimRight(sig.Text, "\n")
	if strings.TrimSpace(text) == "" {
		if quoted == "" {
			return written
		}
		return written + "\n" + quoted
	}
	block := SignatureLine + "\n" + text + "\n"
	if sig.Above && quoted != "" {
		return strings.TrimRight(written, "\n") + "\n\n" + block + "\n" + strings.TrimLeft(quoted, "\n")
	}
	return strings.TrimRight(Signed(written, quoted, Signature{}), "\n") + "\n\n" + block
}

// Quoted is what a reply to o carries under the writer's text: the
// attribution line, then o's text quoted.
func Quoted(o Original) string {
	return attribution(o) + "\n" + quote(o.Text) + "\n"
}

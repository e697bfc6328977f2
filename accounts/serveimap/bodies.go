package serveimap

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/conn"
)

// fetch_bodies reads, of each message, only the parts whose text the
// viewer shows: the BODYSTRUCTURE of the batch first (one FETCH), then
// those parts (one FETCH per set of messages shaped alike), each cut at
// a cap. The parts are put back together as a small multipart message
// and read by mailtext.Parse, the viewer's own parse, so the text is
// what get_message's body says (within the caps).

// Caps on one part read from the server: mailtext keeps at most
// DefaultMaxText of text and reads four times as much HTML; an encoding
// (base64, quoted-printable) takes up to four bytes for a byte of text.
const (
	maxPlainPart    = 4 * mailtext.DefaultMaxText
	maxHTMLPart     = 16 * mailtext.DefaultMaxText
	maxAttachedPart = 4 * mailtext.DefaultMaxText
	// substantialPlain is the size past which a text/plain part is taken
	// to be the body (mailtext skips only a blank one): no HTML is read.
	substantialPlain = 64
)

// textPart is a part to read: where it is and what it is.
type textPart struct {
	path []int
	part *imap.BodyStructureSinglePart
	cap  int64
}

// size is what reading it costs, at most its cap.
func (t textPart) size() int64 { return min(int64(t.part.Size), t.cap) }

// textParts picks the parts mailtext would read the body from, in
// document order: the text/plain parts up to the first that is not
// blank; else those and the first text/html; else, with neither, the
// first attached message (whose body is shown then).
func textParts(bs imap.BodyStructure) []textPart {
	var plains []textPart
	var html, attached *textPart
	substantial := false
	if bs == nil {
		return nil
	}
	bs.Walk(func(path []int, p imap.BodyStructure) bool {
		sp, ok := p.(*imap.BodyStructureSinglePart)
		if !ok {
			return !substantial
		}
		if d := sp.Disposition(); d != nil && strings.EqualFold(d.Value, "attachment") {
			return true
		}
		at := textPart{path: append([]int(nil), path...), part: sp}
		switch sp.MediaType() {
		case "text/plain":
			if !substantial {
				at.cap = maxPlainPart
				plains = append(plains, at)
				substantial = sp.Size > substantialPlain
			}
		case "text/html":
			if html == nil {
				at.cap = maxHTMLPart
				html = &at
			}
		case "message/rfc822", "message/global":
			if attached == nil {
				at.cap = maxAttachedPart
				attached = &at
			}
		}
		return true
	})
	out := plains
	switch {
	case substantial:
	case html != nil:
		out = append(out, *html)
		// The HTML part may come before a blank plain one.
		slices.SortFunc(out, func(x, y textPart) int { return slices.Compare(x.path, y.path) })
	case len(out) == 0 && attached != nil:
		out = []textPart{*attached}
	}
	return out
}

// sections are the FETCH items that read parts.
func sections(parts []textPart) []*imap.FetchItemBodySection {
	out := make([]*imap.FetchItemBodySection, len(parts))
	for i, p := range parts {
		s := &imap.FetchItemBodySection{Part: p.path, Peek: true}
		if int64(p.part.Size) > p.cap {
			s.Partial = &imap.SectionPartial{Offset: 0, Size: p.cap}
		}
		out[i] = s
	}
	return out
}

// shapeKey names a set of sections: messages shaped alike share a FETCH.
func shapeKey(secs []*imap.FetchItemBodySection) string {
	var b strings.Builder
	for _, s := range secs {
		for _, n := range s.Part {
			b.WriteString(strconv.Itoa(n))
			b.WriteByte('.')
		}
		if s.Partial != nil {
			fmt.Fprintf(&b, "<%d>", s.Partial.Size)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// fetchBodies answers fetch_bodies.
func (s *Server) fetchBodies(ctx context.Context, in imapwire.FetchBodiesIn) (imapwire.FetchBodiesOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.FetchBodiesOut{}, "", err
	}
	if len(in.UIDs) > imapwire.MaxBodiesUIDs {
		return imapwire.FetchBodiesOut{}, "", withClass(conn.ClassTool, fmt.Errorf("fetch_bodies: uids: %d uids, over the limit of %d", len(in.UIDs), imapwire.MaxBodiesUIDs))
	}
	set := imap.UIDSet{}
	for _, u := range in.UIDs {
		if u == 0 {
			return imapwire.FetchBodiesOut{}, "", withClass(conn.ClassTool, fmt.Errorf("fetch_bodies: uids: 0 is not a uid"))
		}
		set.AddNum(imap.UID(u))
	}
	folder := folderOr(in.Folder)
	var out imapwire.FetchBodiesOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		out = imapwire.FetchBodiesOut{Folder: folder, Bodies: []imapwire.FetchedBody{}} // a retry starts clean
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		out.UIDValidity = sel.UIDValidity
		if sel.UIDValidity != in.UIDValidity || len(in.UIDs) == 0 {
			return nil
		}
		structure := map[uint32]imap.BodyStructure{}
		lists := map[uint32][]imapwire.Header{}
		opts := &imap.FetchOptions{UID: true, BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
			BodySection: []*imap.FetchItemBodySection{listSection}}
		if err := a.fetchEach(ctx, c, set, opts, func(b *imapclient.FetchMessageBuffer) {
			if b.UID == 0 {
				return
			}
			structure[uint32(b.UID)] = b.BodyStructure
			for _, sec := range b.BodySection {
				if sec.Section.Specifier == imap.PartSpecifierHeader {
					lists[uint32(b.UID)] = listHeaders(sec.Bytes)
					out.Bytes += int64(len(sec.Bytes))
				}
			}
		}); err != nil {
			return err
		}
		if err := a.readParts(ctx, c, in, structure, &out); err != nil {
			return err
		}
		for i := range out.Bodies {
			out.Bodies[i].Headers = lists[out.Bodies[i].UID]
		}
		return nil
	})
	if err != nil {
		return imapwire.FetchBodiesOut{}, "", fmt.Errorf("fetch_bodies %s/%s: %w", in.Account, folder, err)
	}
	return out, fmt.Sprintf("%s: text of %d messages, %d gone, %d bytes read", folder, len(out.Bodies), len(out.Gone), out.Bytes), nil
}

// readParts plans the batch within the budget and reads the parts.
func (a *account) readParts(ctx context.Context, c *imapclient.Client, in imapwire.FetchBodiesIn, structure map[uint32]imap.BodyStructure, out *imapwire.FetchBodiesOut) error {
	type planned struct {
		uid   uint32
		parts []textPart
	}
	var plan []planned
	var cost int64
	for _, uid := range in.UIDs {
		bs, ok := structure[uid]
		if !ok {
			out.Gone = append(out.Gone, uid)
			out.Answered++
			continue
		}
		parts := textParts(bs)
		var n int64
		for _, p := range parts {
			n += p.size()
		}
		if len(plan) > 0 && cost+n > in.MaxBytes {
			break
		}
		cost += n
		plan = append(plan, planned{uid, parts})
		out.Answered++
	}
	// Messages shaped alike (one text part at 1, say) share a FETCH.
	shapes := map[string]*imap.UIDSet{}
	secsOf := map[string][]*imap.FetchItemBodySection{}
	var order []string
	for _, p := range plan {
		secs := sections(p.parts)
		if len(secs) == 0 {
			continue
		}
		k := shapeKey(secs)
		if shapes[k] == nil {
			shapes[k], secsOf[k] = &imap.UIDSet{}, secs
			order = append(order, k)
		}
		shapes[k].AddNum(imap.UID(p.uid))
	}
	got := map[uint32][][]byte{}
	for _, k := range order {
		opts := &imap.FetchOptions{UID: true, BodySection: secsOf[k]}
		if err := a.fetchEach(ctx, c, *shapes[k], opts, func(b *imapclient.FetchMessageBuffer) {
			if b.UID == 0 {
				return
			}
			data := make([][]byte, len(secsOf[k]))
			for i, want := range secsOf[k] {
				for _, s := range b.BodySection {
					if slices.Equal(s.Section.Part, want.Part) && s.Section.Specifier == imap.PartSpecifierNone {
						data[i] = s.Bytes
						out.Bytes += int64(len(s.Bytes))
					}
				}
			}
			got[uint32(b.UID)] = data
		}); err != nil {
			return err
		}
	}
	for _, p := range plan {
		data, ok := got[p.uid]
		if !ok && len(p.parts) > 0 {
			out.Gone = append(out.Gone, p.uid) // expunged between the two FETCHes
			continue
		}
		m := mailtext.Parse(bytes.NewReader(assemble(p.parts, data)), mailtext.Options{})
		out.Bodies = append(out.Bodies, imapwire.FetchedBody{UID: p.uid, Text: m.Text, FromHTML: m.FromHTML, Problems: m.Problems})
	}
	return nil
}

// assemble puts the parts read back together as a multipart/mixed
// message, each under a header made from its BODYSTRUCTURE (media type
// and parameters, transfer encoding, disposition): what mailtext needs
// to read it as the whole message would have been read.
func assemble(parts []textPart, data [][]byte) []byte {
	boundary := "=_unibox_text"
	for n := 0; ; n++ {
		clash := false
		for _, d := range data {
			clash = clash || bytes.Contains(d, []byte("--"+boundary))
		}
		if !clash {
			break
		}
		boundary = fmt.Sprintf("=_unibox_text_%d", n)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"%s\"\r\n\r\n", boundary)
	for i, p := range parts {
		fmt.Fprintf(&b, "--%s\r\nContent-Type: %s%s\r\n", boundary, p.part.MediaType(), headerParams(p.part.Params))
		if enc := p.part.Encoding; enc != "" && isHeaderSafe(enc) {
			fmt.Fprintf(&b, "Content-Transfer-Encoding: %s\r\n", enc)
		}
		if d := p.part.Disposition(); d != nil && isHeaderSafe(d.Value) {
			fmt.Fprintf(&b, "Content-Disposition: %s%s\r\n", d.Value, headerParams(d.Params))
		}
		b.WriteString("\r\n")
		if i < len(data) {
			b.Write(data[i])
		}
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

// headerParams writes params as a header's "; k=\"v\"" list, leaving out
// any a header line could not hold (a server's hostile structure).
func headerParams(params map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(params)) {
		v := params[k]
		if !isToken(k) || !isHeaderSafe(v) {
			continue
		}
		v = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		fmt.Fprintf(&b, "; %s=\"%s\"", k, v)
	}
	return b.String()
}

func isHeaderSafe(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func isToken(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return r <= 0x20 || r >= 0x7f || strings.ContainsRune(`()<>@,;:\"/[]?=`, r)
	})
}

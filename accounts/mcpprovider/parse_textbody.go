package mcpprovider

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"unibox/model"
	"unibox/model/textsafe"
)

// email-mcp's get_email answer is a block of header lines, a blank line
// and the body; some versions start with "📧 <subject>", add "Status:",
// "ID:" and "📎 Attachments:" lines and put "--- Body ---" before the body:
//
//	📧 Quarterly report
//	Status: 🔵 Unread · ⭐ Flagged
//	From:   Ann Example <ann@example.com>
//	To:     bob@example.com
//	Date:   2026-01-02T03:04:05.000Z
//
//	--- Body ---
//
//	Hello Bob, ...
var attachmentItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([^,]+?)\s*\(([^,()]*)(?:,[^()]*)?\)`) })

func parseTextBody(text string) (parsedBody, error) {
	var b parsedBody
	b.msg.Seen = true
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	known := false
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		line := strings.TrimSpace(lines[i])
		if rest, ok := strings.CutPrefix(line, "📧"); ok {
			b.msg.Subject, known = textsafe.Line(rest), true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "📎"); ok {
			b.attachments = append(b.attachments, attachmentList(rest)...)
			b.msg.HasAttachments = true
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(name, " \t") && !strings.EqualFold(name, "message-id") {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "from":
			b.msg.From, known = address(value), true
		case "to":
			b.msg.To = addresses(value)
		case "subject":
			b.msg.Subject, known = textsafe.Line(value), true
		case "date":
			b.msg.Date, known = date(value), true
		case "status":
			b.flagsKnown = true
			b.msg.Seen = !strings.Contains(strings.ToLower(value), "unread")
			b.msg.Flagged = strings.Contains(strings.ToLower(value), "flagged")
			b.msg.Answered = strings.Contains(strings.ToLower(value), "replied")
			continue // not a header of the message
		case "cc":
		case "id", "message-id":
			b.msg.MessageID = strings.Trim(textsafe.Line(value), "<>")
		default:
			continue
		}
		b.headers = append(b.headers, model.Header{Name: textsafe.Line(name), Value: textsafe.Line(value)})
	}
	if !known {
		return parsedBody{}, errors.New("not a message: no From, Subject or Date line in " + preview(text))
	}
	body := lines[min(i, len(lines)):]
	for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
		body = body[1:]
	}
	if len(body) > 0 && strings.HasPrefix(strings.TrimSpace(body[0]), "--- Body") {
		body = body[1:]
		for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
			body = body[1:]
		}
	}
	b.text = strings.TrimRight(textsafe.Block(strings.Join(body, "\n")), "\n ")
	return b, nil
}

// attachmentList reads " Attachments: a.pdf (application/pdf, 1.2KB), ...".
func attachmentList(s string) []model.Attachment {
	if _, rest, ok := strings.Cut(s, ":"); ok {
		s = rest
	}
	var out []model.Attachment
	for _, m := range attachmentItem().FindAllStringSubmatch(s, -1) {
		out = append(out, model.Attachment{Name: textsafe.Line(strings.TrimLeft(m[1], ", ")), Type: textsafe.Line(m[2])})
	}
	return out
}

// email-mcp lists folders one per line, each like
// "• INBOX [\Inbox] — 12 messages (3 unread)" or
// "• Archive [\Archive] — counts unavailable". The bullet, the special-use
// mark and the counts are all optional.
var (
	folderSpecial = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\[(\\?[A-Za-z]+)\]$`) })
	folderTotal   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\s+messages?`) })
	folderUnread  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\s+unread`) })
)

func parseTextFolders(text string) ([]model.Folder, error) {
	var out []model.Folder
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimSpace(raw)
		line = strings.TrimSpace(strings.TrimLeft(line, "•-*📁📂\uFE0F "))
		if line == "" || strings.HasSuffix(line, ":") || strings.HasPrefix(strings.ToLower(line), "no mailboxes") {
			continue
		}
		name, rest, _ := strings.Cut(line, " — ")
		var f model.Folder
		if m := folderSpecial().FindStringSubmatchIndex(name); m != nil {
			f.SpecialUse = specialUse(name[m[2]:m[3]])
			name = name[:m[0]]
		}
		f.Name = textsafe.Line(name)
		if m := folderTotal().FindStringSubmatch(rest); m != nil {
			n, _ := strconv.ParseUint(m[1], 10, 32)
			f.Total = uint32(n)
		}
		if m := folderUnread().FindStringSubmatch(rest); m != nil {
			n, _ := strconv.ParseUint(m[1], 10, 32)
			f.Unread = uint32(n)
		}
		if f.Name != "" {
			out = append(out, f)
		}
	}
	if len(out) == 0 && !strings.Contains(strings.ToLower(text), "no mailboxes") {
		return nil, errors.New("no folders in " + preview(text))
	}
	return out, nil
}

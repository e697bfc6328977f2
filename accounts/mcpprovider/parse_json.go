package mcpprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"unibox/accounts/mailtext"
	"unibox/model"
	"unibox/model/textsafe"
)

// mcp-mail-server answers with JSON text: an array of messages (list), a
// single message (get) or {"messages": [...], ...} (search). A message is
// node-imap attributes plus mailparser's output:
//
//	{"uid": 7, "flags": ["\\Seen"], "date": "2026-01-02T03:04:05.000Z",
//	 "subject": "...", "from": ..., "to": ..., "text": "...", "html": false,
//	 "attachments": [{"filename": "a.pdf", "contentType": "...", "size": 12}]}
//
// Addresses come in every shape mailparser and its callers produce, see
// jsonAddresses. Values are read from a generic decode so that a server
// that changes a field's type degrades that field, not the whole answer;
// only a message without a usable uid fails it (it could not be opened or
// triaged, and dropping it would hide mail).
func decodeJSON(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	return v, nil
}

func parseJSONListing(text string) (listing, error) {
	v, err := decodeJSON(text)
	if err != nil {
		return listing{}, err
	}
	var items []any
	total := -1
	switch t := v.(type) {
	case nil:
	case []any:
		items = t
	case map[string]any:
		switch {
		case hasKey(t, "messages"):
			var ok bool
			if items, ok = t["messages"].([]any); !ok && t["messages"] != nil {
				return listing{}, errors.New(`"messages" is not a list`)
			}
			if n, ok := jsonInt(t["totalMatches"]); ok {
				total = n
			}
		case hasKey(t, "uid"):
			items = []any{t}
		default:
			return listing{}, errors.New("an object without messages or uid")
		}
	default:
		return listing{}, fmt.Errorf("a JSON %T, not messages", v)
	}
	l := listing{total: max(total, len(items))}
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return listing{}, fmt.Errorf("message %d is a JSON %T, not an object", i+1, it)
		}
		p, err := jsonMessage(m)
		if err != nil {
			return listing{}, fmt.Errorf("message %d: %w", i+1, err)
		}
		l.msgs = append(l.msgs, p)
	}
	return l, nil
}

func parseJSONBody(text string) (parsedBody, error) {
	v, err := decodeJSON(text)
	if err != nil {
		return parsedBody{}, err
	}
	if list, ok := v.([]any); ok { // get_messages-style answer
		if len(list) == 0 {
			return parsedBody{}, errNoMessage
		}
		v = list[0]
	}
	if v == nil {
		return parsedBody{}, errNoMessage
	}
	m, ok := v.(map[string]any)
	if !ok {
		return parsedBody{}, fmt.Errorf("a JSON %T, not a message", v)
	}
	p, err := jsonMessage(m)
	if err != nil {
		return parsedBody{}, err
	}
	b := parsedBody{parsed: p}
	b.text = jsonString(m["text"])
	if html := jsonString(m["html"]); strings.TrimSpace(b.text) == "" && html != "" {
		b.text, b.fromHTML = mailtext.HTMLToText(html), true
	}
	b.text = strings.TrimRight(textsafe.Block(b.text), "\n ")
	if atts, ok := m["attachments"].([]any); ok {
		for _, a := range atts {
			am, _ := a.(map[string]any)
			size, _ := jsonInt(am["size"])
			b.attachments = append(b.attachments, model.Attachment{Name: textsafe.Line(jsonString(am["filename"])),
				Type: textsafe.Line(jsonString(am["contentType"])), Size: int64(max(size, 0))})
		}
	}
	if s := jsonString(m["subject"]); s != "" {
		b.headers = append(b.headers, model.Header{Name: "Subject", Value: textsafe.Line(s)})
	}
	return b, nil
}

// jsonMessage reads one message object.
func jsonMessage(m map[string]any) (parsed, error) {
	var p parsed
	n, ok := jsonInt(m["uid"])
	if !ok || n <= 0 || n > 1<<32-1 {
		if s, isStr := m["uid"].(string); isStr {
			uid, err := parseUID(s)
			if err != nil {
				return parsed{}, err
			}
			n = int(uid)
		} else {
			return parsed{}, fmt.Errorf("no usable uid (%v)", textsafe.Line(fmt.Sprint(m["uid"])))
		}
	}
	p.uid = uint32(n)
	p.folder = textsafe.Line(jsonString(m["mailbox"]))
	p.msg.Subject = textsafe.Line(jsonString(m["subject"]))
	p.msg.MessageID = strings.Trim(textsafe.Line(jsonString(m["messageId"])), "<>")
	p.msg.Threading = jsonThreading(m)
	p.msg.Date = date(jsonString(m["date"]))
	if from := jsonAddresses(m["from"]); len(from) > 0 {
		p.msg.From = from[0]
	}
	p.msg.To = jsonAddresses(m["to"])
	if size, ok := jsonInt(m["size"]); ok && size > 0 && size <= 1<<32-1 {
		p.msg.Size = uint32(size)
	}
	if atts, ok := m["attachments"].([]any); ok {
		p.msg.HasAttachments = len(atts) > 0
		for _, a := range atts {
			// A third-party server gives no structure: an .ics or a
			// text/calendar attachment is an invitation of unknown method.
			if am, ok := a.(map[string]any); ok && mailtext.IsCalendar(strings.ToLower(jsonString(am["contentType"])), jsonString(am["filename"])) {
				p.msg.Invitation = model.InviteCalendar
			}
		}
	}
	if flags, ok := m["flags"].([]any); ok {
		p.flagsKnown = true
		for _, f := range flags {
			switch strings.ToLower(jsonString(f)) {
			case `\seen`:
				p.msg.Seen = true
			case `\flagged`:
				p.msg.Flagged = true
			case `\answered`:
				p.msg.Answered = true
			case `$forwarded`: // a keyword: any case (RFC 3501 section 2.3.2)
				p.msg.Forwarded = true
			}
		}
	} else {
		p.msg.Seen = true // unknown: do not show it as new mail
	}
	return p, nil
}

// jsonThreading reads the raw threading ids a server gives (messageId,
// inReplyTo, references: a header value or a list), kept only where they
// are ids; nil when it gives none of them, so the message threads as
// one without known headers.
func jsonThreading(m map[string]any) *model.ThreadHeaders {
	var t model.ThreadHeaders
	known := false
	if v, ok := m["messageId"].(string); ok {
		known = true
		t.MessageID, _ = model.CleanMsgID(v)
	}
	if v, ok := m["inReplyTo"].(string); ok {
		known = true
		if ids := model.MsgIDList(v); len(ids) > 0 {
			t.InReplyTo = ids[0]
		} else {
			t.InReplyTo, _ = model.CleanMsgID(v)
		}
	}
	switch v := m["references"].(type) {
	case string:
		known, t.References = true, model.MsgIDList(v)
	case []any:
		known = true
		var parts []string
		for _, r := range v {
			if s, ok := r.(string); ok {
				if id, ok := model.CleanMsgID(s); ok {
					parts = append(parts, "<"+id+">")
				}
			}
		}
		t.References = model.MsgIDList(strings.Join(parts, " "))
	}
	if !known {
		return nil
	}
	return &t
}

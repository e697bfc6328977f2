package demo

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"time"
)

// The demo's attachments are small but real files, so that opening one
// from the demo shows a document rather than an error: a one-page PDF, a
// tiny JPEG and an iCalendar invite. All are built deterministically.

// pdfDoc returns a minimal valid one-page PDF showing lines in Helvetica.
func pdfDoc(lines ...string) []byte {
	var content strings.Builder
	y := 780
	for i, l := range lines {
		size := 11
		if i == 0 {
			size = 20
		}
		l = strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(l)
		fmt.Fprintf(&content, "BT /F1 %d Tf 72 %d Td (%s) Tj ET\n", size, y, l)
		y -= size + 10
	}
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

// jpegPhoto returns a tiny JPEG: a lake at sunset, 32×24 pixels of it.
func jpegPhoto() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 32, 24))
	for y := range 24 {
		for x := range 32 {
			c := color.RGBA{uint8(250 - y*4), uint8(150 - y*3), uint8(80 + y*5), 255}
			if y >= 14 { // water
				c = color.RGBA{uint8(40 + x), uint8(70 + y*2), uint8(130 + y*3), 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 70}); err != nil {
		panic("demo: jpeg: " + err.Error()) // cannot happen writing to a bytes.Buffer
	}
	return b.Bytes()
}

// invite is an iCalendar meeting request.
type invite struct {
	uid, summary, location, description string
	start                               time.Time
	length                              time.Duration
	organizer                           person
	attendees                           []person
}

// ics renders the invite as an RFC 5545 METHOD:REQUEST calendar.
func (v invite) ics(stamp time.Time) []byte {
	const f = "20060102T150405Z"
	lines := []string{
		"BEGIN:VCALENDAR", "PRODID:-//unibox//demo//EN", "VERSION:2.0", "CALSCALE:GREGORIAN", "METHOD:REQUEST",
		"BEGIN:VEVENT",
		"UID:" + v.uid,
		"DTSTAMP:" + stamp.UTC().Format(f),
		"DTSTART:" + v.start.UTC().Format(f),
		"DTEND:" + v.start.Add(v.length).UTC().Format(f),
		"SUMMARY:" + v.summary,
		"LOCATION:" + v.location,
		"DESCRIPTION:" + strings.ReplaceAll(v.description, "\n", `\n`),
		"ORGANIZER;CN=" + v.organizer.name + ":mailto:" + v.organizer.addr,
	}
	for _, a := range v.attendees {
		lines = append(lines, "ATTENDEE;CN="+a.name+";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:"+a.addr)
	}
	lines = append(lines, "SEQUENCE:0", "STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR")
	var b strings.Builder
	for _, l := range lines {
		// Fold at 74 octets, on a rune boundary, as RFC 5545 asks.
		for len(l) > 74 {
			cut := 74
			for cut > 0 && l[cut]&0xC0 == 0x80 {
				cut--
			}
			b.WriteString(l[:cut] + "\r\n ")
			l = l[cut:]
		}
		b.WriteString(l + "\r\n")
	}
	return []byte(b.String())
}

// htmlize renders a newsletter's plain text as the HTML alternative a
// mailing service would send: a styled page with a heading, paragraphs,
// bullet lists and linked URLs.
func htmlize(title, text string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) + "</title>\n")
	b.WriteString("<style>\nbody { margin: 0; background: #f2f3f5; font-family: Helvetica, Arial, sans-serif; color: #222; }\n")
	b.WriteString(".card { max-width: 600px; margin: 0 auto; background: #fff; padding: 24px 32px; }\n")
	b.WriteString("h1 { font-size: 22px; color: #b4432b; } a { color: #b4432b; }\n</style>\n</head>\n")
	b.WriteString("<body><div class=\"card\">\n<h1>" + html.EscapeString(title) + "</h1>\n")
	inList := false
	for _, line := range strings.Split(strings.Trim(text, "\n"), "\n") {
		item := strings.HasPrefix(line, "- ")
		if item != inList {
			if item {
				b.WriteString("<ul>\n")
			} else {
				b.WriteString("</ul>\n")
			}
			inList = item
		}
		switch {
		case item:
			b.WriteString("<li>" + linkify(strings.TrimPrefix(line, "- ")) + "</li>\n")
		case line != "":
			b.WriteString("<p>" + linkify(line) + "</p>\n")
		}
	}
	if inList {
		b.WriteString("</ul>\n")
	}
	b.WriteString("</div></body></html>\n")
	return b.String()
}

// linkify escapes a line of text and turns its https:// words into links.
func linkify(line string) string {
	words := strings.Split(line, " ")
	for i, w := range words {
		if strings.HasPrefix(w, "https://") {
			u := strings.TrimRight(w, ".,)")
			words[i] = `<a href="` + html.EscapeString(u) + `">` + html.EscapeString(u) + "</a>" + html.EscapeString(w[len(u):])
		} else {
			words[i] = html.EscapeString(w)
		}
	}
	return strings.Join(words, " ")
}

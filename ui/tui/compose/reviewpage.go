package compose

import (
	"fmt"
	"strings"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/invite"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// The review's page. What a person must see before sending is never cut
// to the screen's width: every mark, and every recipient as
// screen.AddressLines shows one. Since that can take more lines than the
// screen has, all of it scrolls with the text, and the bottom line says
// "↓ more" while anything is below.

// labelWidth is the columns of a header's label ("Subject: ").
const labelWidth = 9

// Page is the review's lines: those that stay (what stops the send, and
// the discard's question), and those that scroll (the marks, the headers
// as they will go, the text, then the message it answers).
func (c Composer) Page(width int) (fixed, text []string) {
	d := c.Shown
	fixed = c.promptLines(width)
	if c.refused != "" {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(textsafe.Line("the server refused it: "+c.refused), width)))
	}
	if c.problem != "" {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(textsafe.Line("cannot send: "+c.problem+" · "+screen.Hint(c.keys.Edit)+" edits"), width)))
	}
	if c.confirm {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(screen.Hint(c.keys.Discard)+" again discards this draft: its text is lost", width)))
	}
	text = append(c.markLines(width), c.headerLines(width)...)
	text = append(text, screen.Rule(width))
	text = append(text, c.bodies.lines(d.Body, width, func() []string { return strings.Split(screen.Wrap(faithful(d.Body), width), "\n") })...)
	if c.answers == nil && c.answersNote == "" {
		return fixed, text
	}
	verb := "answers"
	if d.Kind == mailcompose.KindForward {
		verb = "forwards"
	}
	text = append(text, textsafe.Fit("── "+verb+" "+strings.Repeat("─", max(width-4-len(verb), 0)), width))
	if c.answersNote != "" {
		return fixed, append(text, c.styles.Dim.Render(textsafe.Fit(textsafe.Line(c.answersNote), width)))
	}
	o := c.answers
	text = append(text, textsafe.Fit(c.styles.Label.Render("From:   ")+" "+textsafe.Line(screen.FormatAddr(o.From)+" · "+o.Date.Format("Mon, 2 Jan 2006 15:04")), width))
	text = append(text, textsafe.Fit(c.styles.Label.Render("Subject:")+" "+textsafe.Line(o.Subject), width), "")
	return fixed, append(text, c.quoted.lines(o.Text, width, func() []string { return strings.Split(screen.Wrap(textsafe.Block(o.Text), width), "\n") })...)
}

// headerLines is the headers as they will go: each address on lines of
// its own, the subject and the attachments wrapped.
func (c Composer) headerLines(width int) []string {
	d := c.Shown
	room := max(width-labelWidth, 1)
	var out []string
	label := func(name string, first bool) string {
		if !first {
			return strings.Repeat(" ", labelWidth)
		}
		return c.styles.Label.Render(fmt.Sprintf("%-8s", name)) + " "
	}
	addresses := func(name string, list []model.Address) {
		if len(list) == 0 {
			out = append(out, label(name, true))
		}
		for i, a := range list {
			for j, l := range screen.AddressLines(a, room, c.styles.Dim.Render) {
				out = append(out, label(name, i == 0 && j == 0)+l)
			}
		}
	}
	words := func(name, value string) {
		for i, l := range screen.BreakCells(value, room, room, true) {
			out = append(out, label(name, i == 0)+textsafe.Fit(l, room))
		}
	}
	addresses("From:", []model.Address{d.From})
	addresses("To:", d.To)
	if len(d.Cc) > 0 {
		addresses("Cc:", d.Cc)
	}
	if len(d.Bcc) > 0 {
		addresses("Bcc:", d.Bcc)
	}
	words("Subject:", d.Subject)
	if r := d.RSVP; r != nil {
		words("Answer:", textsafe.Line(r.Said()))
		words("Event:", "text/calendar; method=REPLY for "+textsafe.Line(r.UID)+rsvpInstance(r))
	}
	for _, p := range d.Attachments {
		what := fmt.Sprintf("%s (%s, %s)", textsafe.Line(p.Name), textsafe.Line(p.Type), screen.HumanSize(int64(len(p.Data))))
		if p.Path != "" && p.Path != p.Name {
			what += " from " + textsafe.Line(p.Path)
		}
		words("Attach:", what)
	}
	return out
}

// rsvpInstance names the one instance an answer is about, "" for the
// whole series.
func rsvpInstance(r *invite.ReplySpec) string {
	if r.RecurrenceID == nil {
		return ""
	}
	return ", only the occurrence of " + textsafe.Line(r.RecurrenceID.Value)
}

// rsvpMarks are what an answer to an invitation must show first: that it
// goes to an organizer who did not send the invitation, and that it no
// longer goes to the organizer at all (its To edited).
func (c Composer) rsvpMarks(width int) []string {
	r := c.Shown.RSVP
	if r == nil {
		return nil
	}
	var out []string
	org := r.Organizer.Email
	if r.Sender != "" && !strings.EqualFold(r.Sender, org) {
		out = append(out, c.wrapped(c.styles.StatusError.Render, "! the answer goes to ORGANIZER "+textsafe.Line(org)+", not the sender "+textsafe.Line(r.Sender), width)...)
	}
	toOrganizer := false
	for _, a := range append(append([]model.Address{}, c.Shown.To...), c.Shown.Cc...) {
		toOrganizer = toOrganizer || strings.EqualFold(a.Address, org)
	}
	if !toOrganizer {
		out = append(out, c.wrapped(c.styles.StatusError.Render, "! the organizer "+textsafe.Line(org)+" is not a recipient: the answer will not reach their calendar", width)...)
	}
	return out
}

// markLines is every one of the review's marks, each wrapped onto as
// many lines as it needs: what a person should see before sending.
func (c Composer) markLines(width int) []string {
	return append(c.rsvpMarks(width), c.recipientMarks(width)...)
}

// recipientMarks are the marks of the recipients and the text.
func (c Composer) recipientMarks(width int) []string {
	if c.checking {
		return c.wrapped(c.styles.Dim.Render, "checking whom this account has written to…", width)
	}
	if len(c.Marks) == 0 {
		return c.wrapped(c.styles.Dim.Render, "every recipient has been written to before", width)
	}
	var out []string
	for _, mk := range c.Marks {
		text := mk.Text
		if mk.Field != "" {
			text = mk.Field + ": " + text
		}
		out = append(out, c.wrapped(c.styles.StatusError.Render, "! "+textsafe.Line(text), width)...)
	}
	return out
}

// wrapped is s broken at spaces into width columns, later lines indented
// by two, each line styled (screen.Hanging).
func (c Composer) wrapped(style func(...string) string, s string, width int) []string {
	return screen.Hanging(style, s, width)
}

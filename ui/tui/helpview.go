package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// helpPages is the help as the terminal can hold it: the short help is one
// line; the full help is bubbles' columns when they fit between the header
// and the status line (leaving one body line), otherwise every binding
// flowed into as many columns as the width holds, in pages of the height
// that is left, which ? steps through before it closes. The frame never
// grows past the terminal, so the account bar stays on line 1 at 40x10.
// km is the view's keys (its component's help); helpKey the binding of ?.
func (f *frame) helpPages(km help.KeyMap, helpKey key.Binding) []string {
	if !f.help.ShowAll {
		return []string{f.help.ShortHelpView(f.shortFit(km.ShortHelp(), helpKey))}
	}
	lines := max(1, f.height-4) // bar, header, one body line, status
	if full := f.help.View(km); lipgloss.Height(full) <= lines && lipgloss.Width(full) <= f.width {
		return []string{full}
	}
	return f.flowHelp(km.FullHelp(), lines, helpKey)
}

// shortFit is the short help's bindings that fit the width: while the
// line is too long, the last hint other than the help key's gives way,
// so ? is always on the line (bubbles would cut the line's end, and at
// 80 columns the list's "? help" with it).
func (f *frame) shortFit(bs []key.Binding, helpKey key.Binding) []key.Binding {
	if !slices.ContainsFunc(bs, func(b key.Binding) bool { return isKey(b, helpKey) }) {
		return bs // a screen where ? is text: bubbles cuts the line as before
	}
	measure := f.help
	measure.Width = 0 // the line's whole width
	bs = slices.Clone(bs)
	for lipgloss.Width(measure.ShortHelpView(bs)) > f.width {
		i := len(bs) - 1
		for i >= 0 && (isKey(bs[i], helpKey) || !bs[i].Enabled()) {
			i--
		}
		if i < 0 {
			break // the help key alone: bubbles cuts it
		}
		bs = slices.Delete(bs, i, i+1)
	}
	return bs
}

// isKey: b is bound to exactly the keys of k (the help key, as the
// screen's help names it, maybe with its own words).
func isKey(b, k key.Binding) bool { return slices.Equal(b.Keys(), k.Keys()) }

// helpPageOf is the page of the help on screen.
func (f *frame) helpPageOf(km help.KeyMap, helpKey key.Binding) string {
	pages := f.helpPages(km, helpKey)
	return pages[min(f.helpPage, len(pages)-1)]
}

// minHelpDesc is the narrowest description column worth a second column
// of help: "search server", "next account" and most others still fit.
const minHelpDesc = 12

// flowHelp lays the bindings out column by column, each "key desc" in a
// cell of the widest entry's width, in pages of at most lines lines; a
// page that is not the only one ends with where ? goes next.
func (f *frame) flowHelp(groups [][]key.Binding, lines int, helpKey key.Binding) []string {
	type entry struct{ k, d string }
	var entries []entry
	keyW, entryW := 0, 0
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			e := entry{textsafe.Line(b.Help().Key), textsafe.Line(b.Help().Desc)}
			entries = append(entries, e)
			keyW = max(keyW, textsafe.Width(e.k))
		}
	}
	for _, e := range entries {
		entryW = max(entryW, keyW+1+textsafe.Width(e.d))
	}
	entryW = max(min(entryW, f.width), keyW+2) // the frame is at least 40 wide
	cols := max(1, (f.width+2)/(entryW+2))
	if squeezed := (f.width+2)/2 - 2; cols == 1 && squeezed >= keyW+1+minHelpDesc {
		// Two columns whose longest descriptions end in "…" beat twice
		// the pages.
		cols, entryW = 2, squeezed
	}
	rows := lines
	if len(entries) > cols*rows { // more than one page: keep a line for "? more"
		rows = max(1, lines-1)
	}
	perPage := cols * rows
	nPages := (len(entries) + perPage - 1) / perPage
	st := f.help.Styles
	var pages []string
	for p := range nPages {
		page := entries[p*perPage : min(len(entries), (p+1)*perPage)]
		out := make([]string, min(rows, len(page)))
		for i, e := range page {
			if out[i%rows] != "" {
				out[i%rows] += "  "
			}
			out[i%rows] += st.FullKey.Render(textsafe.Fit(e.k, keyW)) + " " + st.FullDesc.Render(textsafe.Fit(e.d, entryW-keyW-1))
		}
		if nPages > 1 {
			next := "more"
			if p == nPages-1 {
				next = "close"
			}
			out = append(out, st.FullDesc.Render(textsafe.Fit(fmt.Sprintf("%s %s (%d/%d)", screen.Hint(helpKey), next, p+1, nPages), f.width)))
		}
		pages = append(pages, strings.Join(out, "\n"))
	}
	return pages
}

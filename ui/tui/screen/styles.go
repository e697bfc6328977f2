package screen

import "github.com/charmbracelet/lipgloss"

// Styles are the semantic styles of the screen. Every piece of state is
// also readable without colour (glyphs, brackets, marks): colour only helps.
type Styles struct {
	Bar, BadgeFocused, Badge     lipgloss.Style
	BadgeOK, BadgeWarn, BadgeBad lipgloss.Style
	Header, Status, StatusError  lipgloss.Style
	Row, RowSelected, RowStale   lipgloss.Style
	Unread, Fresh, Tag           lipgloss.Style
	Title, Label, Dim            lipgloss.Style
}

// DefaultStyles derives the styles from a small palette.
func DefaultStyles() Styles {
	accent := lipgloss.AdaptiveColor{Light: "#5A56E0", Dark: "#7571F9"}
	ok := lipgloss.AdaptiveColor{Light: "#02A876", Dark: "#04B575"}
	warn := lipgloss.AdaptiveColor{Light: "#C88A00", Dark: "#E8B931"}
	bad := lipgloss.AdaptiveColor{Light: "#D7263D", Dark: "#FF5F6D"}
	faint := lipgloss.AdaptiveColor{Light: "#9B9B9B", Dark: "#6C6C6C"}
	return Styles{
		Bar:          lipgloss.NewStyle(),
		Badge:        lipgloss.NewStyle(),
		BadgeFocused: lipgloss.NewStyle().Bold(true).Underline(true).Foreground(accent),
		BadgeOK:      lipgloss.NewStyle().Foreground(ok),
		BadgeWarn:    lipgloss.NewStyle().Foreground(warn),
		BadgeBad:     lipgloss.NewStyle().Foreground(bad).Bold(true),
		Header:       lipgloss.NewStyle().Foreground(faint),
		Status:       lipgloss.NewStyle().Foreground(faint),
		StatusError:  lipgloss.NewStyle().Foreground(bad),
		Row:          lipgloss.NewStyle(),
		RowSelected:  lipgloss.NewStyle().Reverse(true),
		RowStale:     lipgloss.NewStyle().Faint(true),
		Unread:       lipgloss.NewStyle().Bold(true),
		Fresh:        lipgloss.NewStyle().Foreground(accent).Bold(true),
		Tag:          lipgloss.NewStyle().Foreground(accent),
		Title:        lipgloss.NewStyle().Bold(true),
		Label:        lipgloss.NewStyle().Foreground(faint),
		Dim:          lipgloss.NewStyle().Faint(true),
	}
}

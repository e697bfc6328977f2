package screen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is every binding of the TUI. Each is shown in help and can be
// rebound under [keys] by its action name.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Open, Back, Quit                        key.Binding
	NextAccount, PrevAccount, AllAccounts   key.Binding
	Refresh, RefreshAll, Details, Help      key.Binding
	ToggleRead, ToggleFlag, Archive, Trash  key.Binding
	Move, Select, ClearSelection, Undo      key.Binding
	Filter, Search                          key.Binding
	Snooze                                  key.Binding // Z: until a time, back in INBOX then
	// Writing: Compose anywhere; Reply, ReplyAll and Forward in a message
	// (where r and R do not refresh); the review screen's own keys.
	Compose, Reply, ReplyAll, Forward, Drafts key.Binding
	Send, Edit, Postpone, Discard             key.Binding
	// OwnFrom on the review puts the account's from on a draft whose
	// From is none of its addresses (one found in Drafts).
	OwnFrom key.Binding
	// Attach on the review asks for a file's path (a, as in mutt's
	// compose menu; in the list a stays all_accounts), in which Complete
	// completes a file name.
	Attach, Complete key.Binding
	// EditRecipients on the review asks To: then Cc: (t, as in mutt's
	// compose menu; in the list t stays threads). At those prompts, and
	// the To: that c and F ask first, Complete completes an address from
	// the contacts and, with a list open, moves down it; CompletePrev
	// moves up.
	EditRecipients, CompletePrev key.Binding
	// Conversations: the thread view, a thread opened and closed in it,
	// and stepping through a thread in the message view.
	Threads, Expand, Collapse, NextInThread, PrevInThread key.Binding
	// Unsubscribe shows what leaving a mailing list will do; y does it.
	Unsubscribe key.Binding
	// Attachments in the message view: A lists them (enter opens one), S
	// saves the selected one.
	Attachments, SaveAttachment key.Binding
	// Folders: another folder of an account in the list (folders.go).
	Folders key.Binding
	// The screener (issue 40): W opens what waits in it; there y lets
	// the sender in, n screens them out, N their whole domain.
	Screener, ScreenIn, ScreenOut, ScreenOutDomain key.Binding
	// Agents' rule proposals (issue 40): P opens them; there y accepts
	// one into the rules file, x rejects it.
	Proposals, AcceptProposal, RejectProposal key.Binding
	// Invitations (issue 41): I in the message view opens the answer
	// screen of the invitation on screen; there a accepts, t answers
	// maybe, d declines (each then asks the editor for a comment).
	Invitation, RSVPAccept, RSVPTentative, RSVPDecline key.Binding
}

// DefaultKeyMap is the built-in keymap (aerc/mutt-like).
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:              b([]string{"k", "up"}, "k/↑", "up"),
		Down:            b([]string{"j", "down"}, "j/↓", "down"),
		Top:             b([]string{"g", "home"}, "g", "top"),
		Bottom:          b([]string{"G", "end"}, "G", "bottom"),
		PageUp:          b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown:        b([]string{"pgdown", "ctrl+f"}, "pgdn", "page down"),
		Open:            b([]string{"enter"}, "enter", "open"),
		Back:            b([]string{"esc"}, "esc", "back"),
		Quit:            b([]string{"q", "ctrl+c"}, "q", "quit/back"),
		NextAccount:     b([]string{"tab"}, "tab", "next account"),
		PrevAccount:     b([]string{"shift+tab"}, "S-tab", "prev account"),
		AllAccounts:     b([]string{"a"}, "a", "all accounts"),
		Refresh:         b([]string{"r"}, "r", "refresh"),
		RefreshAll:      b([]string{"R"}, "R", "refresh all"),
		Details:         b([]string{"i"}, "i", "details"),
		Help:            b([]string{"?"}, "?", "help"),
		ToggleRead:      b([]string{"u"}, "u", "read/unread"),
		ToggleFlag:      b([]string{"f"}, "f", "flag"),
		Archive:         b([]string{"e"}, "e", "archive"),
		Trash:           b([]string{"d"}, "d", "trash"),
		Move:            b([]string{"m"}, "m", "move"),
		Select:          b([]string{" "}, "space", "select"),
		ClearSelection:  b([]string{"v"}, "v", "clear selection"),
		Undo:            b([]string{"z"}, "z", "undo"),
		Snooze:          b([]string{"Z"}, "Z", "snooze"),
		Filter:          b([]string{"/"}, "/", "filter"),
		Search:          b([]string{"s"}, "s", "search"),
		Compose:         b([]string{"c"}, "c", "compose"),
		Reply:           b([]string{"r"}, "r", "reply"),
		ReplyAll:        b([]string{"R"}, "R", "reply all"),
		Forward:         b([]string{"F"}, "F", "forward"),
		Drafts:          b([]string{"D"}, "D", "drafts, outbox"),
		Send:            b([]string{"y"}, "y", "send"),
		Edit:            b([]string{"e"}, "e", "edit"),
		Postpone:        b([]string{"p"}, "p", "postpone to Drafts"),
		Discard:         b([]string{"x"}, "x", "discard"),
		OwnFrom:         b([]string{"f"}, "f", "From: the account's"),
		Attach:          b([]string{"a"}, "a", "attach"),
		Complete:        b([]string{"tab"}, "tab", "complete"),
		CompletePrev:    b([]string{"shift+tab"}, "S-tab", "previous completion"),
		EditRecipients:  b([]string{"t"}, "t", "To, Cc"),
		Threads:         b([]string{"t"}, "t", "threads"),
		Expand:          b([]string{"l", "right"}, "l/→", "open thread"),
		Collapse:        b([]string{"h", "left"}, "h/←", "close thread"),
		NextInThread:    b([]string{"n"}, "n", "next in thread"),
		PrevInThread:    b([]string{"p"}, "p", "previous in thread"),
		Unsubscribe:     b([]string{"U"}, "U", "unsubscribe"),
		Attachments:     b([]string{"A"}, "A", "attachments"),
		SaveAttachment:  b([]string{"S"}, "S", "save attachment"),
		Folders:         b([]string{"o"}, "o", "folders"),
		Screener:        b([]string{"W"}, "W", "screener"),
		ScreenIn:        b([]string{"y"}, "y", "let sender in"),
		ScreenOut:       b([]string{"n"}, "n", "screen sender out"),
		ScreenOutDomain: b([]string{"N"}, "N", "screen domain out"),
		Proposals:       b([]string{"P"}, "P", "rules proposed"),
		AcceptProposal:  b([]string{"y"}, "y", "accept rule"),
		RejectProposal:  b([]string{"x"}, "x", "reject rule"),
		Invitation:      b([]string{"I"}, "I", "answer invitation"),
		RSVPAccept:      b([]string{"a"}, "a", "accept"),
		RSVPTentative:   b([]string{"t"}, "t", "maybe"),
		RSVPDecline:     b([]string{"d"}, "d", "decline"),
	}
}

// Actions names every binding for [keys] rebinding.
func (k *KeyMap) Actions() map[string]*key.Binding {
	return map[string]*key.Binding{
		"up": &k.Up, "down": &k.Down, "top": &k.Top, "bottom": &k.Bottom,
		"page_up": &k.PageUp, "page_down": &k.PageDown,
		"open": &k.Open, "back": &k.Back, "quit": &k.Quit,
		"next_account": &k.NextAccount, "prev_account": &k.PrevAccount, "all_accounts": &k.AllAccounts,
		"refresh": &k.Refresh, "refresh_all": &k.RefreshAll, "details": &k.Details, "help": &k.Help,
		"toggle_read": &k.ToggleRead, "toggle_flag": &k.ToggleFlag, "archive": &k.Archive, "trash": &k.Trash,
		"move": &k.Move, "select": &k.Select, "clear_selection": &k.ClearSelection, "undo": &k.Undo,
		"filter": &k.Filter, "search": &k.Search, "snooze": &k.Snooze,
		"compose": &k.Compose, "reply": &k.Reply, "reply_all": &k.ReplyAll, "forward": &k.Forward, "drafts": &k.Drafts,
		"send": &k.Send, "edit": &k.Edit, "postpone": &k.Postpone, "discard": &k.Discard, "own_from": &k.OwnFrom,
		"attach": &k.Attach, "complete": &k.Complete, "complete_prev": &k.CompletePrev, "edit_recipients": &k.EditRecipients,
		"threads": &k.Threads, "expand": &k.Expand, "collapse": &k.Collapse,
		"next_in_thread": &k.NextInThread, "prev_in_thread": &k.PrevInThread,
		"unsubscribe": &k.Unsubscribe,
		"attachments": &k.Attachments, "save_attachment": &k.SaveAttachment,
		"folders":  &k.Folders,
		"screener": &k.Screener, "screen_in": &k.ScreenIn, "screen_out": &k.ScreenOut, "screen_out_domain": &k.ScreenOutDomain,
		"proposals": &k.Proposals, "accept_proposal": &k.AcceptProposal, "reject_proposal": &k.RejectProposal,
		"invitation": &k.Invitation, "rsvp_accept": &k.RSVPAccept, "rsvp_tentative": &k.RSVPTentative, "rsvp_decline": &k.RSVPDecline,
	}
}

// Actions lists the action names [keys] may rebind, sorted.
func Actions() []string {
	k := DefaultKeyMap()
	var names []string
	for n := range k.Actions() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Rebind applies [keys] rebindings: action name → keys. An unknown action
// is an error naming the valid ones.
func (k *KeyMap) Rebind(bindings map[string][]string) error {
	acts := k.Actions()
	for name, keys := range bindings {
		b, ok := acts[name]
		if !ok {
			return fmt.Errorf("unknown action %q (actions: %s)", name, strings.Join(Actions(), ", "))
		}
		for i, kk := range keys {
			if kk == "space" {
				keys[i] = " "
			}
		}
		help := strings.Join(keys, "/")
		b.SetKeys(keys...)
		b.SetHelp(strings.ReplaceAll(help, " ", "space"), b.Help().Desc)
	}
	return nil
}

// Clash is a key that means two things on one screen: bound to an
// action of the screen (Action) and to another one there (Other).
type Clash struct {
	Action string // the later of the two in the screen's row (an attachment action in the message view)
	Other  string // the other action
	Key    string
	Screen string // where: "message view", "review screen", …
}

func (c Clash) Error() string {
	return fmt.Sprintf("%q is both %s and %s in the %s; bind one of them to another key", c.Key, c.Other, c.Action, c.Screen)
}

// ShortHelp is the one-line help of the list.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Archive, k.ToggleRead, k.Refresh, k.NextAccount, k.Filter, k.Help, k.Quit}
}

// FullHelp is every binding, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		// Open and Back end the first column, so the help's last line
		// always names them (the frame's checks look for it there).
		{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Select, k.Open, k.Back},
		{k.NextAccount, k.PrevAccount, k.AllAccounts, k.Refresh, k.RefreshAll, k.Details, k.Help, k.Quit, k.Proposals},
		{k.ToggleRead, k.ToggleFlag, k.Archive, k.Trash, k.Move, k.Snooze, k.Undo, k.Unsubscribe, k.Folders},
		{k.ClearSelection, k.Filter, k.Search, k.Compose, k.Drafts, k.Threads, k.Expand, k.Collapse, k.Screener},
	}
}

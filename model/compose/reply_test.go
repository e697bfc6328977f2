package compose

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"unibox/model"
)

var (
	alice = model.Address{Name: "Alice", Address: "alice@example.org"}
	self  = Identity{From: alice, Aliases: []string{"ALICE@work.example", "a@example.org"}}
	bob   = model.Address{Name: "Bob", Address: "bob@example.com"}
	carol = model.Address{Name: "Carol", Address: "carol@example.com"}
	dave  = model.Address{Name: "Dave", Address: "dave@example.com"}
	list  = model.Address{Name: "List", Address: "list@lists.example"}
)

func addrs(l []model.Address) []string {
	var out []string
	for _, a := range l {
		out = append(out, a.Address)
	}
	return out
}

// Reply goes to Reply-To, else From; reply all adds To and Cc minus the
// identity's own addresses (any case), with nobody twice and nobody in
// both To and Cc.
func TestReplyRecipients(t *testing.T) {
	for _, tc := range []struct {
		name   string
		o      Original
		all    bool
		to, cc []string
	}{
		{"from", Original{From: bob, To: []model.Address{alice, carol}}, false,
			[]string{"bob@example.com"}, nil},
		{"reply-to wins", Original{From: bob, ReplyTo: []model.Address{list}}, false,
			[]string{"list@lists.example"}, nil},
		{"all: to and cc, minus self", Original{From: bob, To: []model.Address{alice, carol}, Cc: []model.Address{dave}}, true,
			[]string{"bob@example.com", "carol@example.com"}, []string{"dave@example.com"}},
		{"all: aliases any case", Original{From: bob,
			To: []model.Address{{Address: "alice@WORK.example"}, carol},
			Cc: []model.Address{{Address: "A@Example.org"}, dave}}, true,
			[]string{"bob@example.com", "carol@example.com"}, []string{"dave@example.com"}},
		{"all: duplicates once, cc not repeating to", Original{From: bob,
			To: []model.Address{carol, {Address: "CAROL@example.com"}, bob},
			Cc: []model.Address{{Address: "Bob@Example.com"}, dave, dave, carol}}, true,
			[]string{"bob@example.com", "carol@example.com"}, []string{"dave@example.com"}},
		{"all: reply-to and from's list", Original{From: bob, ReplyTo: []model.Address{list}, To: []model.Address{list, alice}}, true,
			[]string{"list@lists.example"}, nil},
		{"own message goes to its To", Original{From: alice, To: []model.Address{bob}}, false,
			[]string{"bob@example.com"}, nil},
		{"empty original", Original{}, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Reply(tc.o, self, tc.all)
			if got := addrs(d.To); !reflect.DeepEqual(got, tc.to) {
				t.Errorf("To = %v, want %v", got, tc.to)
			}
			if got := addrs(d.Cc); !reflect.DeepEqual(got, tc.cc) {
				t.Errorf("Cc = %v, want %v", got, tc.cc)
			}
			if want := self.For(tc.o); d.From != want { // the alias addressed: TestAnswerFromTheAliasAddressed
				t.Errorf("From = %v, want %v", d.From, want)
			}
			want := KindReply
			if tc.all {
				want = KindReplyAll
			}
			if d.Kind != want {
				t.Errorf("Kind = %v, want %v", d.Kind, want)
			}
		})
	}
}

// In-Reply-To is the original's id; References its References (else its
// In-Reply-To) plus its id, capped at the first and the last 20, with
// anything that is not an id left out.
func TestReplyThreading(t *testing.T) {
	many := make([]string, 10000)
	for i := range many {
		many[i] = fmt.Sprintf("r%d@h", i)
	}
	for _, tc := range []struct {
		name      string
		o         Original
		inReplyTo string
		refs      []string
	}{
		{"refs plus id", Original{MessageID: "c@h", References: []string{"a@h", "b@h"}, InReplyTo: "b@h"}, "c@h",
			[]string{"a@h", "b@h", "c@h"}},
		{"in-reply-to starts the chain", Original{MessageID: "c@h", InReplyTo: "<b@h>"}, "c@h",
			[]string{"b@h", "c@h"}},
		{"first message", Original{MessageID: "<a@h>"}, "a@h", []string{"a@h"}},
		{"no ids at all", Original{}, "", nil},
		{"id already last", Original{MessageID: "b@h", References: []string{"a@h", "b@h"}}, "b@h",
			[]string{"a@h", "b@h"}},
		{"not ids dropped", Original{MessageID: "c@h\r\nBcc: x@y", References: []string{"a b@h", "a@h> <evil@h", "", "ok@h"}}, "",
			[]string{"ok@h"}},
		{"10k references capped", Original{MessageID: "last@h", References: many}, "last@h",
			append(append([]string{many[0]}, many[len(many)-19:]...), "last@h")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Reply(tc.o, self, false)
			if d.InReplyTo != tc.inReplyTo {
				t.Errorf("InReplyTo = %q, want %q", d.InReplyTo, tc.inReplyTo)
			}
			if !reflect.DeepEqual(d.References, tc.refs) {
				t.Errorf("References = %v (%d), want %v (%d)", d.References, len(d.References), tc.refs, len(tc.refs))
			}
		})
	}
}

// The quote is "On <date>, <name> wrote:" then "> " lines, ">" for an
// empty one; mail's escape sequences never reach the editor.
func TestReplyQuote(t *testing.T) {
	date := time.Date(2026, 3, 2, 9, 5, 0, 0, time.FixedZone("", 3600))
	for _, tc := range []struct {
		name string
		o    Original
		want string
	}{
		{"plain", Original{From: bob, Date: date, Text: "Hi,\n\nsee you.\n"},
			"\nOn Mon, 2 Mar 2026 09:05 +0100, Bob wrote:\n> Hi,\n>\n> see you.\n"},
		{"crlf and no name", Original{From: model.Address{Address: "bob@example.com"}, Date: date, Text: "a\r\nb"},
			"\nOn Mon, 2 Mar 2026 09:05 +0100, bob@example.com wrote:\n> a\n> b\n"},
		{"unknown date", Original{From: bob, Text: "x"}, "\nBob wrote:\n> x\n"},
		{"empty original", Original{}, "\nan unknown sender wrote:\n>\n"},
		{"hostile", Original{From: model.Address{Name: "Bob\r\nBcc: e@v", Address: "bob@example.com"}, Text: "a\x1b]52;c;eA==\x07b\n\x1b[2Jc"},
			"\nBob Bcc: e@v wrote:\n> ab\n> c\n"},
		{"already quoted", Original{From: bob, Text: "> old\nnew"}, "\nBob wrote:\n> > old\n> new\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Reply(tc.o, self, false).Body; got != tc.want {
				t.Errorf("Body = %q\nwant   %q", got, tc.want)
			}
		})
	}
}

// A name or subject from mail holding CR/LF cannot become a header line of
// its own in the editor's text: the block has exactly the five lines.
func TestReplyHeaderInjection(t *testing.T) {
	o := Original{
		From:    model.Address{Name: "Bob\r\nBcc: spy@evil.example", Address: "bob@example.com"},
		ReplyTo: []model.Address{{Name: "R\nX-Foo: 1", Address: "bob@example.com"}},
		Cc:      []model.Address{{Name: "C\rc", Address: "c@example.com\r\nBcc: spy2@evil.example"}},
		Subject: "hi\r\nBcc: spy3@evil.example\r\n\r\nbody",
	}
	for _, all := range []bool{false, true} {
		d := Reply(o, self, all)
		text := d.Editable()
		head, _, _ := strings.Cut(text, "\n\n")
		lines := strings.Split(head, "\n")
		if len(lines) != 5 {
			t.Fatalf("all=%v: header block has %d lines, want 5:\n%s", all, len(lines), head)
		}
		for i, name := range []string{"From:", "To:", "Cc:", "Bcc:", "Subject:"} {
			if !strings.HasPrefix(lines[i], name) {
				t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], name)
			}
		}
		if lines[3] != "Bcc: " {
			t.Errorf("Bcc line = %q, want it empty", lines[3])
		}
		if strings.ContainsAny(text[:len(head)], "\r") {
			t.Errorf("a CR reached the header block: %q", head)
		}
	}
}

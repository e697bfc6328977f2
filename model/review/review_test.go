package review

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/compose"
	"unibox/model/textsafe"
)

func addrs(list ...string) []model.Address {
	out := make([]model.Address, len(list))
	for i, a := range list {
		out[i] = model.Address{Address: a}
	}
	return out
}

func knownOf(list ...string) Known {
	k := Known{Addrs: map[string]bool{}}
	for _, a := range list {
		k.Addrs[AddressKey(a)] = true
	}
	return k
}

func lines(n int) string { return strings.Repeat("line\n", n) }

// noSubject in a case of TestCheck is an empty Subject (an empty one in
// the case means "some subject": most cases are about other marks).
const noSubject = "\x00none"

// texts is the marks as "kind field: text", for comparing whole answers.
func texts(marks []Mark) []string {
	out := make([]string, len(marks))
	for i, m := range marks {
		out[i] = fmt.Sprintf("%s %s: %s", m.Kind, m.Field, m.Text)
	}
	return out
}

func TestCheck(t *testing.T) {
	bob := knownOf("bob@example.org", "ann@bücher.example")
	for _, tc := range []struct {
		name  string
		m     Message
		known Known
		want  []string
	}{
		{"known recipient, short body: nothing",
			Message{To: addrs("bob@example.org"), Body: "hi"}, bob, nil},
		{"a Cc'd attacker is new, though it came with the thread",
			Message{To: addrs("bob@example.org"), Cc: addrs("x@evil.example")}, bob,
			[]string{"new_recipient Cc: new recipient: x@evil.example"}},
		{"a Bcc is checked too",
			Message{To: addrs("bob@example.org"), Bcc: addrs("x@evil.example")}, bob,
			[]string{"new_recipient Bcc: new recipient: x@evil.example"}},
		{"mixed-case domain and local part are the same mailbox",
			Message{To: addrs("Bob@EXAMPLE.Org")}, bob, nil},
		{"a +tag is another address",
			Message{To: addrs("bob+x@example.org")}, bob,
			[]string{"new_recipient To: new recipient: bob+x@example.org"}},
		{"a substring of a known address is new",
			Message{To: addrs("ob@example.org")}, bob,
			[]string{"new_recipient To: new recipient: ob@example.org"}},
		{"Unicode case folding does not join look-alikes (ſ is not s)",
			Message{To: addrs("boſ@example.org")}, knownOf("bos@example.org"),
			[]string{"new_recipient To: new recipient: boſ@example.org"}},
		{"IDN domain: new, shown with its punycode",
			Message{To: addrs("bob@bücher.example")}, bob,
			[]string{"new_recipient To: new recipient: bob@bücher.example (xn--bcher-kva.example)",
				"idn To: non-ASCII domain: bob@bücher.example (xn--bcher-kva.example)"}},
		{"IDN domain known by its punycode form: only the IDN mark",
			Message{To: addrs("ann@xn--bcher-kva.example"), Cc: addrs("ann@BÜCHER.example")}, bob,
			[]string{"idn Cc: non-ASCII domain: ann@BÜCHER.example (xn--bcher-kva.example)"}},
		{"a Cyrillic а in a Latin domain mixes scripts",
			Message{To: addrs("pay@pаypal.com")}, knownOf("pay@pаypal.com"),
			[]string{"idn To: non-ASCII domain: pay@pаypal.com (xn--pypal-4ve.com)",
				"mixed_script To: domain mixes scripts (Cyrillic+Latin): pay@pаypal.com (xn--pypal-4ve.com)"}},
		{"Japanese mixing Han and Hiragana is no mark of its own",
			Message{To: addrs("a@日本ご.jp")}, knownOf("a@日本ご.jp"),
			[]string{"idn To: non-ASCII domain: a@日本ご.jp (xn--38jv62nb2a.jp)"}},
		{"a recipient in To and Cc is marked once",
			Message{To: addrs("x@evil.example"), Cc: addrs("X@Evil.Example")}, bob,
			[]string{"new_recipient To: new recipient: x@evil.example"}},
		{"an address with a bidi control shows it",
			Message{To: addrs("x@evil\u202e.example")}, bob,
			[]string{"new_recipient To: new recipient: x@evil<U+202E>.example (not a valid domain name: xn--evil-yd7a.example)",
				"idn To: non-ASCII domain: x@evil<U+202E>.example (not a valid domain name: xn--evil-yd7a.example)"}},
		{"Sent could not be checked: said once, recipients still new",
			Message{To: addrs("bob@example.org", "new@example.org")}, Known{Addrs: bob.Addrs, Unchecked: "cannot check"},
			[]string{"unchecked : could not check: treated as new (cannot check)",
				"new_recipient To: new recipient: new@example.org"}},
		{"200 lines: no mark", Message{To: addrs("bob@example.org"), Body: lines(200)}, bob, nil},
		{"200 lines without a final line end: no mark",
			Message{To: addrs("bob@example.org"), Body: strings.TrimSuffix(lines(200), "\n")}, bob, nil},
		{"201 lines", Message{To: addrs("bob@example.org"), Body: lines(201)}, bob,
			[]string{"long_body Body: long body: 201 lines (over 200)"}},
		{"201 lines ended by lone CRs, as compose sends them",
			Message{To: addrs("bob@example.org"), Body: strings.Repeat("l\r", 201)}, bob,
			[]string{"long_body Body: long body: 201 lines (over 200)"}},
		{"no subject: marked, after the recipients and before the body",
			Message{To: addrs("x@evil.example"), Subject: noSubject, Body: lines(201)}, bob,
			[]string{"new_recipient To: new recipient: x@evil.example", "no_subject Subject: no subject",
				"long_body Body: long body: 201 lines (over 200)"}},
		{"a subject of spaces is none", Message{To: addrs("bob@example.org"), Subject: " \t "}, bob,
			[]string{"no_subject Subject: no subject"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			switch tc.m.Subject {
			case "":
				tc.m.Subject = "hi" // the cases above are about other marks
			case noSubject:
				tc.m.Subject = ""
			}
			got := texts(Check(tc.m, tc.known))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestCheckLinks(t *testing.T) {
	known := knownOf("bob@example.org")
	for _, tc := range []struct {
		name       string
		body, html string
		want       []string
	}{
		{"markdown text names another domain",
			"pay here: [paypal.com](http://evil.example/login)", "",
			[]string{`link Body: link text "paypal.com" goes to "http://evil.example/login"`}},
		{"markdown text and target agree (www. is the same site)",
			"[paypal.com](https://www.paypal.com/x)", "", nil},
		{"markdown URL text with userinfo trick in the target",
			"[https://paypal.com](https://paypal.com@evil.example/)", "",
			[]string{`link Body: link text "https://paypal.com" goes to "https://paypal.com@evil.example/"`}},
		{"markdown: suffix trick paypal.com.evil.example",
			"[paypal.com](https://paypal.com.evil.example)", "",
			[]string{`link Body: link text "paypal.com" goes to "https://paypal.com.evil.example"`}},
		{"markdown text that is no domain: no mark",
			"[click here](http://evil.example) and [report.pdf](http://files.example/r)", "", nil},
		{"markdown to a javascript: target",
			"[bank.com](javascript:alert(1))", "",
			[]string{`link Body: link text "bank.com" goes to "javascript:alert(1"`}},
		{"HTML anchor with nested tags",
			"", `<p>Log in at <a href="https://evil.example/x"><b>pay</b><span>pal.com</span></a></p>`,
			[]string{`link HTML: link text "paypal.com" goes to "https://evil.example/x"`}},
		{"HTML anchor that agrees",
			"", `<a href="https://accounts.google.com/"><i>google.com</i></a> <a href="https://x.example">here</a>`, nil},
		{"HTML: an entity-encoded href is what the browser follows",
			"", `<a href="https://evil&#46;example/">bank.com</a>`,
			[]string{`link HTML: link text "bank.com" goes to "https://evil.example/"`}},
		{"HTML: bidi override in the link text",
			"", "<a href=\"https://moc.evil.example\">\u202emoc.lapyap</a>",
			[]string{`link HTML: link text "<U+202E>moc.lapyap" goes to "https://moc.evil.example"`}},
		{"markdown: zero-width space cannot hide the domain",
			"[pay\u200bpal.com](https://paypal.com)", "",
			[]string{`link Body: link text "pay<U+200B>pal.com" goes to "https://paypal.com"`}},
		{"HTML: IDN text against its own punycode host agrees",
			"", `<a href="https://xn--bcher-kva.example/">bücher.example</a>`, nil},
		{"HTML: control characters in a target are shown, not obeyed",
			"", "<a href=\"https://evil.example/\x1b]52;c;AAAA\x07\">bank.com</a>",
			[]string{`link HTML: link text "bank.com" goes to "https://evil.example/<U+001B>]52;c;AAAA<U+0007>"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := texts(Check(Message{To: addrs("bob@example.org"), Subject: "hi", Body: tc.body, HTML: tc.html}, known))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, m := range got {
				if textsafe.Line(m) != m {
					t.Fatalf("mark %q is not terminal-safe", m)
				}
			}
		})
	}
}

func TestAddressKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"bob@example.org", "BOB@Example.ORG", true},
		{"bob@bücher.example", "bob@xn--bcher-kva.example", true},
		{"bob@example.org.", "bob@example.org", true},
		{"bob+tag@example.org", "bob@example.org", false},
		{"b.ob@gmail.com", "bob@gmail.com", false},
		{"bob@example.org", "bob@example.org.evil.example", false},
		{"Kbob@example.org", "\u212abob@example.org", false}, // Kelvin sign
	} {
		if got := AddressKey(tc.a) == AddressKey(tc.b); got != tc.same {
			t.Errorf("AddressKey(%q) == AddressKey(%q): %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// What is reviewed is what is sent: the prepared message's own bytes,
// read back, give the same recipients (Bcc included) and body.
func TestFromPrepared(t *testing.T) {
	d := compose.Draft{From: model.Address{Address: "sam@example.org"}, To: addrs("bob@example.org"),
		Cc: addrs("x@evil.example"), Bcc: addrs("hidden@bücher.example"), Subject: "hi",
		Body: "see [paypal.com](http://evil.example)\n" + lines(200)}
	p, err := d.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromPrepared(p)
	if err != nil {
		t.Fatal(err)
	}
	got := texts(Check(m, knownOf("bob@example.org")))
	want := texts(Check(FromDraft(d), knownOf("bob@example.org")))
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != 5 {
		t.Fatalf("from the prepared bytes:\n%s\nfrom the draft:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := m.Recipients(); strings.Join(r, ",") != "bob@example.org,x@evil.example,hidden@bücher.example" {
		t.Fatalf("recipients %v", r)
	}
}

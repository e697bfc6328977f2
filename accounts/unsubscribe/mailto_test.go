package unsubscribe_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"unibox/accounts/unsubscribe"
	"unibox/model"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParseMailto(t *testing.T) {
	tests := []struct {
		uri  string
		want unsubscribe.Mailto
	}{
		{"mailto:leave@list.example", unsubscribe.Mailto{To: "leave@list.example"}},
		{"mailto:leave@list.example?subject=unsubscribe%20me&body=please+stop",
			unsubscribe.Mailto{To: "leave@list.example", Subject: "unsubscribe me", Body: "please+stop"}},
		{"mailto:leave@list.example?cc=boss@corp.example&bcc=spy@evil.example&subject=stop&In-Reply-To=%3Cx%3E",
			unsubscribe.Mailto{To: "leave@list.example", Subject: "stop", Dropped: []string{"bcc", "cc", "in-reply-to"}}},
		{"mailto:leave@list.example?subject=stop%0D%0ABcc:%20spy@evil.example&body=a%0Ab%0D%0Ac",
			unsubscribe.Mailto{To: "leave@list.example", Subject: "stop Bcc: spy@evil.example", Body: "a b c"}},
		{"MAILTO:leave%40list.example?to=other@evil.example",
			unsubscribe.Mailto{To: "leave@list.example", Dropped: []string{"to"}}},
	}
	for _, tt := range tests {
		got, err := unsubscribe.ParseMailto(tt.uri)
		if err != nil {
			t.Fatalf("%s: %v", tt.uri, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", tt.uri, got, tt.want)
		}
		if strings.ContainsAny(got.Subject+got.Body+got.To, "\r\n") {
			t.Fatalf("%s: CR or LF kept: %+v", tt.uri, got)
		}
	}
}

func TestParseMailtoRefuses(t *testing.T) {
	for _, uri := range []string{
		"mailto:",                        // no address
		"mailto:a@x.example,b@y.example", // two
		"mailto:a@x.example%0D%0ABcc:b@y.example",
		"https://x.example/",
		"mailto:not an address",
	} {
		if _, err := unsubscribe.ParseMailto(uri); err == nil {
			t.Fatalf("%s: accepted", uri)
		}
	}
	_, err := unsubscribe.ParseMailto("mailto:a@x.example?body=" + strings.Repeat("b", unsubscribe.MaxMailtoBody+1))
	var le *model.LimitError
	if !errors.As(err, &le) || le.Field != "mailto body" || le.Limit != unsubscribe.MaxMailtoBody {
		t.Fatalf("long body: %v", err)
	}
}

// The message the send path gets from a hostile mailto: one recipient,
// the subject, no Cc or Bcc, no header line the URI tried to add.
func TestMailtoDraftWire(t *testing.T) {
	m, err := unsubscribe.ParseMailto("mailto:leave@list.example?subject=stop%0D%0ABcc:%20spy@evil.example&cc=boss@corp.example&bcc=x@evil.example&body=bye")
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Draft(model.Address{Address: "me@example.org"}).Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Rcpt, []string{"leave@list.example"}) {
		t.Fatalf("recipients %v", p.Rcpt)
	}
	head, _, _ := strings.Cut(string(p.Wire), "\r\n\r\n")
	for _, line := range strings.Split(head, "\r\n") {
		if l := strings.ToLower(line); strings.HasPrefix(l, "cc:") || strings.HasPrefix(l, "bcc:") {
			t.Fatalf("header line %q in\n%s", line, head)
		}
	}
	if !strings.Contains(head, "Subject: stop Bcc: spy@evil.example") {
		t.Fatalf("subject not kept on one line:\n%s", head)
	}
}

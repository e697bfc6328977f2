package screener

import (
	"testing"

	"unibox/model"
)

func TestJudge(t *testing.T) {
	msg := func(uid uint32, from, thread string, headers ...model.Header) model.Message {
		return model.Message{ID: model.MessageID{Account: "w", Folder: "INBOX", UIDValidity: 7, UID: uid},
			From: model.Address{Address: from}, ThreadID: thread, Headers: headers}
	}
	facts := Facts{Started: true, UIDValidity: 7, UIDNext: 100,
		Decided:   map[string]string{"friend@a.example": In, "spam@b.example": Out, "@c.example": Out, "pal@c.example": In},
		Written:   func(a string) bool { return a == "boss@work.example" || a == "colleague@c.example" },
		OwnThread: func(tid string) bool { return tid == "t-mine" },
	}
	fail := model.Header{Name: "Authentication-Results", Value: "mx.example.org; dmarc=fail header.from=a.example"}
	pass := model.Header{Name: "authentication-results", Value: "mx.example.org; dmarc=pass header.from=a.example"}
	for _, tc := range []struct {
		name  string
		facts Facts
		m     model.Message
		want  model.Screen
	}{
		{"not started: nothing is screened", Facts{}, msg(200, "new@x.example", ""), model.ScreenNone},
		{"old mail, before the start", facts, msg(99, "new@x.example", ""), model.ScreenNone},
		{"another uidvalidity is new mail", func() Facts { f := facts; f.UIDValidity = 8; return f }(), msg(5, "new@x.example", ""), model.ScreenNew},
		{"a new sender", facts, msg(100, "new@x.example", ""), model.ScreenNew},
		{"no address at all", facts, msg(100, "", ""), model.ScreenNew},
		{"let in", facts, msg(101, "Friend@A.example", ""), model.ScreenNone},
		{"written to", facts, msg(101, "boss@work.example", ""), model.ScreenNone},
		{"a thread with the person's own Sent", facts, msg(101, "new@x.example", "t-mine"), model.ScreenNone},
		{"a thread without", facts, msg(101, "new@x.example", "t-other"), model.ScreenNew},
		{"screened out", facts, msg(101, "spam@b.example", ""), model.ScreenOut},
		{"screened out beats written to and own thread", Facts{Started: true, Decided: map[string]string{"boss@work.example": Out}, Written: facts.Written, OwnThread: facts.OwnThread},
			msg(101, "boss@work.example", "t-mine"), model.ScreenOut},
		{"a screened-out domain", facts, msg(101, "any@c.example", ""), model.ScreenOut},
		{"a screened-out domain spares a sender let in", facts, msg(101, "pal@c.example", ""), model.ScreenNone},
		{"a screened-out domain spares someone written to", facts, msg(101, "colleague@c.example", ""), model.ScreenNone},
		{"DMARC fail screens a friend", facts, msg(101, "friend@a.example", "t-mine", fail), model.ScreenForged},
		{"DMARC pass on top: a forged fail below says nothing", facts, msg(101, "friend@a.example", "", pass, fail), model.ScreenNone},
		{"a forged pass below a real fail", facts, msg(101, "friend@a.example", "", fail, pass), model.ScreenForged},
		{"not INBOX", facts, func() model.Message { m := msg(101, "new@x.example", ""); m.ID.Folder = "Lists"; return m }(), model.ScreenNone},
		{"inbox in any case", facts, func() model.Message { m := msg(101, "new@x.example", ""); m.ID.Folder = "inbox"; return m }(), model.ScreenNew},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Judge(tc.facts, tc.m); got != tc.want {
				t.Fatalf("Judge = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDMARCFails(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"mx.example.org; dmarc=fail (p=reject) header.from=example.com", true},
		{"mx.example.org; spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com; dmarc=pass header.from=example.com", false},
		{"mx.example.org; dkim=fail; dmarc=none", false},
		{"mx.example.org 1; dmarc=fail", true},
		{"mx.example.org 2; dmarc=fail", false}, // an unknown version says nothing
		{"garbage ;;; = =", false},
		{"", false},
	} {
		if got := DMARCFails([]model.Header{{Name: AuthResultsHeader, Value: tc.value}}); got != tc.want {
			t.Errorf("DMARCFails(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

func FuzzDMARCFails(f *testing.F) {
	f.Add("mx.example.org; dmarc=fail header.from=example.com")
	f.Add("x; dmarc=\"fail\"")
	f.Fuzz(func(t *testing.T, v string) {
		DMARCFails([]model.Header{{Name: AuthResultsHeader, Value: v}})
	})
}

package compose

import (
	"testing"

	"unibox/model"
)

// An answer goes out from the alias the original was written to, with
// From's name; From itself wins when both were addressed, To before Cc;
// mail that named none of them (a list, a Bcc) goes out from From.
func TestAnswerFromTheAliasAddressed(t *testing.T) {
	work := model.Address{Name: "Sales", Address: "alice@WORK.example"}
	for _, tc := range []struct {
		name string
		o    Original
		want string
	}{
		{"to from", Original{From: bob, To: []model.Address{alice}}, "alice@example.org"},
		{"to alias, any case", Original{From: bob, To: []model.Address{work}}, "ALICE@work.example"},
		{"cc alias", Original{From: bob, To: []model.Address{carol}, Cc: []model.Address{{Address: "a@example.org"}}}, "a@example.org"},
		{"from and alias", Original{From: bob, To: []model.Address{work, alice}}, "ALICE@work.example"},
		{"to before cc", Original{From: bob, To: []model.Address{{Address: "a@example.org"}}, Cc: []model.Address{alice}}, "a@example.org"},
		{"list", Original{From: bob, To: []model.Address{list}}, "alice@example.org"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := self.For(tc.o)
			if got.Address != tc.want || got.Name != "Alice" {
				t.Fatalf("For = %+v, want Alice <%s>", got, tc.want)
			}
			for _, d := range []Draft{Reply(tc.o, self, false), Reply(tc.o, self, true), Forward(tc.o, self)} {
				if d.From != got {
					t.Errorf("%v from %+v, want %+v", d.Kind, d.From, got)
				}
				for _, a := range append(d.To, d.Cc...) {
					if sameAddress(a.Address, got.Address) {
						t.Errorf("%v sends to its own From %s", d.Kind, a.Address)
					}
				}
			}
		})
	}
}

package query

import (
	"slices"
	"testing"
	"time"
)

func TestSnippet(t *testing.T) {
	long := "Hello Sam, here is the plan for next week. We meet in Köln on Tuesday and then travel on to the coast for the workshop."
	for _, tt := range []struct {
		text, q string
		width   int
		want    string
	}{
		{long, "koln", 40, "…meet in Köln on Tuesday and then trave…"},
		{long, "hello", 30, "Hello Sam, here is the plan f…"},
		{long, "from:sam", 20, "Hello Sam, here is …"}, // a header hit: the start
		{long, "-tuesday coast", 30, "…the coast for the workshop."},
		{long, "work*", 200, "…Tuesday and then travel on to the coast for the workshop."},
		{"会議は東京で行います", "東京", 10, "…議は東京で行います"},
		{"short", "missing", 30, "short"},
		{"a\n\n  b\tc", "b", 30, "a b c"},
	} {
		n, err := Parse(tt.q, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if got := Snippet(tt.text, n, tt.width); got != tt.want {
			t.Errorf("Snippet(%q, %d) = %q, want %q", tt.q, tt.width, got, tt.want)
		}
	}
}

func TestPlaces(t *testing.T) {
	n, err := Parse(`account:Work (folder:Archive OR folder:INBOX) -folder:Spam -account:Home budget`, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	accts, folders := Places(n)
	if !slices.Equal(accts, []string{"Work"}) || !slices.Equal(folders, []string{"Archive", "INBOX"}) {
		t.Errorf("Places: %q %q", accts, folders)
	}
}

package textsafe

import "testing"

// Pictographic agrees with Unicode's emoji-data.txt on the characters
// emoji sequences are made of, and on their neighbours that are not.
func TestPictographic(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
	}{
		{'👨', true}, {'❤', true}, {'🏳', true}, {'🌈', true}, {'☠', true}, {'♀', true},
		{'©', true}, {'‼', true}, {'🔥', true}, {'🫠', true},
		{'a', false}, {'1', false}, {'#', false}, {'ی', false}, {'क', false},
		{'\u200d', false}, {'\uFE0F', false}, {'\U0001F3FD', false}, {'\U000E0041', false}, {'→', false}, {'€', false},
	} {
		if got := Pictographic(tc.r); got != tc.want {
			t.Errorf("Pictographic(%U) = %v, want %v", tc.r, got, tc.want)
		}
	}
}

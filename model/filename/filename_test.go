package filename

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	long := strings.Repeat("é", 150) + ".pdf" // 304 bytes
	for _, tc := range []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"", Fallback},
		{"   ", Fallback},
		{".", Fallback},
		{"..", Fallback},
		{"../../x", "_._x"},
		{`..\..\windows\system32`, "_._windows_system32"},
		{"/etc/passwd", "_etc_passwd"},
		{".bashrc", "bashrc"},
		{"...hidden.txt", "hidden.txt"},
		{"a..b.pdf", "a.b.pdf"},
		{"invoice\u202Efdp.exe", "invoicefdp.exe"}, // RLO: shows as "invoiceexe.pdf"
		{"a\u2066b\u2069.txt", "ab.txt"},
		{"zero\u200Bwidth\u200D\uFEFF.txt", "zerowidth.txt"},
		{"tab\there\nnew\x00line\x7f\u0085.txt", "tabherenewline.txt"},
		{"bad\xff\xfeutf8.txt", "bad_utf8.txt"},
		{"con", Fallback},
		{"CON.txt", Fallback + ".txt"},
		{"lpt1.tar.gz", Fallback + ".gz"},
		{"com0.txt", "com0.txt"},
		{"console.txt", "console.txt"},
		{"what?.txt", "what_.txt"},
		{"trailing. . ", "trailing"},
		{"two  spaces\u00a0here.txt", "two spaces here.txt"},
		{".pdf", "pdf"},
		{"日本語の名前.docx", "日本語の名前.docx"},
		{long, strings.Repeat("é", 98) + ".pdf"},
		{strings.Repeat("a", 300), strings.Repeat("a", MaxBytes)},
		{strings.Repeat("a", 300) + ".averyveryverylongextension", strings.Repeat("a", MaxBytes)},
		{"\u202E", Fallback},
	} {
		if got := Safe(tc.in); got != tc.want {
			t.Errorf("Safe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNumbered(t *testing.T) {
	long := Safe(strings.Repeat("x", 300) + ".pdf")
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"report.pdf", 0, "report.pdf"},
		{"report.pdf", 1, "report (1).pdf"},
		{"report", 12, "report (12)"},
		{"archive.tar.gz", 2, "archive.tar (2).gz"},
		{long, 3, strings.Repeat("x", MaxBytes-len(" (3).pdf")) + " (3).pdf"},
	} {
		if got := Numbered(tc.in, tc.n); got != tc.want {
			t.Errorf("Numbered(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// checkSafe is every promise Safe makes, for the table and the fuzz.
func checkSafe(t *testing.T, in, got string) {
	t.Helper()
	switch {
	case got == "" || len(got) > MaxBytes || !utf8.ValidString(got):
		t.Fatalf("Safe(%q) = %q: empty, over %d bytes or not UTF-8", in, got, MaxBytes)
	case strings.ContainsAny(got, `/\`) || strings.Contains(got, ".."):
		t.Fatalf("Safe(%q) = %q: a separator or ..", in, got)
	case strings.HasPrefix(got, ".") || strings.HasPrefix(got, " ") || strings.HasSuffix(got, " "):
		t.Fatalf("Safe(%q) = %q: a leading dot or an edge space", in, got)
	case strings.IndexFunc(got, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0:
		t.Fatalf("Safe(%q) = %q: a control or format character", in, got)
	case !filepath.IsLocal(got) || filepath.Base(got) != got:
		t.Fatalf("Safe(%q) = %q: not one local path element", in, got)
	case Safe(got) != got:
		t.Fatalf("Safe(%q) = %q, but Safe of that is %q", in, got, Safe(got))
	}
}

func FuzzSafe(f *testing.F) {
	for _, s := range []string{"report.pdf", "../../x", "a\u202Eb.exe", "", "con.txt", strings.Repeat("é", 150) + ".pdf", ". .", "x. .y"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, in string, n int) {
		got := Safe(in)
		checkSafe(t, in, got)
		n = n%1000 + 1
		if n < 1 {
			n = -n + 1
		}
		num := Numbered(got, n)
		checkSafe(t, in, num)
		if num == got {
			t.Fatalf("Numbered(%q, %d) = the name itself", got, n)
		}
	})
}

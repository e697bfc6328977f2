package runnable

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		refused    string // part of the reason; "" when opened
	}{
		{"report.pdf", "%PDF-1.7\n", ""},
		{"photo.JPG", "\xff\xd8\xff\xe0", ""},
		{"notes.txt", "#hashtag is not a shebang", ""},
		{"setup.exe", "anything", "Windows program (by its name)"},
		{"SETUP.EXE. ", "anything", "Windows program (by its name)"},
		{"run.sh", "echo hi", "shell script"},
		{"evil.desktop", "", "desktop launcher (by its name)"},
		{"invoice.pdf", "\x7fELF\x02\x01\x01", "ELF"},
		{"invoice.pdf", "MZ\x90\x00", "PE"},
		{"invoice.pdf", "\xcf\xfa\xed\xfe", "Mach-O"},
		{"invoice.pdf", "#!/bin/sh\nrm -rf ~\n", "script (#!)"},
		{"invoice.pdf", "\xef\xbb\xbf#!/bin/sh\n", "script (#!)"},
		{"invoice.pdf", "# a comment\n\n[Desktop Entry]\nExec=sh -c x\n", "[Desktop Entry]"},
		{"notes.txt", "text\n[Desktop Entry]\n", ""},
		{"x.sh.txt", "hello", ""},
		{"x.txt.sh", "hello", "shell script"},
	} {
		err := Check(tc.name, []byte(tc.head))
		var r *Refused
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("Check(%q, %q) = %v, want nil", tc.name, tc.head, err)
		case tc.refused != "" && (!errors.As(err, &r) || !strings.Contains(r.Reason, tc.refused)):
			t.Errorf("Check(%q, %q) = %v, want a refusal saying %q", tc.name, tc.head, err, tc.refused)
		}
	}
}

package config

import "testing"

// FuzzParse: no input may panic, hang or yield an error that is not an
// *Error (the locator runs on whatever the decoder accepted).
func FuzzParse(f *testing.F) {
	f.Add("[[account]]\n" + imapOK + "security = \"ssl\"\n")
	f.Add("a = \"\"\"x\\\n\"\"\"\n[[a.b]]\n'q.k' = [1,\n2]\n")
	f.Add("x = '''\n'''''\n[ \"a\" . 'b' ]\n")
	f.Fuzz(func(t *testing.T, src string) {
		locate(src).line("account[0].name")
		_, err := Parse("f.toml", []byte(src))
		if err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}

package config

import "testing"

func TestLocate(t *testing.T) {
	src := `# top comment
top = 1
[[account]]          # 3
name = "a # not a comment"
"quoted.key" = 1
multi = """
fake = 1
"""""
arr = [
  "x", # comment ]
  'y',
]
[account.tools . list]  # 13
tool = 'l'
[[account]]          # 15
name = "b"
lit = '''
[[account]]
'''
[[account.provision]] # 20
tool = "p"
[[account.provision]] # 22
[ui]
a.b.c = {x = 1}     # 24
`
	l := locate(src)
	tests := map[string]int{
		"top":                                    2,
		"account[0]":                             3,
		"account[0].name":                        4,
		`account[0]."quoted.key"`:                5,
		"account[0].multi":                       6,
		"account[0].arr":                         9,
		"account[0].tools.list":                  13,
		"account[0].tools.list.tool":             14,
		"account[1]":                             15,
		"account[1].name":                        16,
		"account[1].lit":                         17,
		"account[1].provision[0]":                20,
		"account[1].provision[0].tool":           21,
		"account[1].provision[1]":                22,
		"account[1].provision[1].tool":           22, // missing: its header
		"ui.a.b.c":                               24,
		"ui.a.b.c.x":                             24, // inside an inline table: the key's line
		"account[0].fake":                        3,  // in a string: not a key
		"account[2]":                             1,  // unknown: line 1
		"account[1].provision[0].args.deep.more": 20,
	}
	for path, want := range tests {
		if got := l.line(path); got != want {
			t.Errorf("line(%s) = %d, want %d", path, got, want)
		}
	}
}

func TestParentPath(t *testing.T) {
	tests := map[string]string{
		"a":               "",
		"a.b":             "a",
		"a[3]":            "a",
		"a[3].b":          "a[3]",
		`a."x.y"`:         "a",
		`a."x.y".z`:       `a."x.y"`,
		`"x.y"`:           "",
		"account[0].env.": "account[0].env",
	}
	for in, want := range tests {
		if got := parentPath(in); got != want {
			t.Errorf("parentPath(%q) = %q, want %q", in, got, want)
		}
	}
}

package textsafe

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// hostileSeeds are the inputs every fuzz target starts from. They are also
// committed as files under testdata/fuzz so that `go test` replays them
// without -fuzz; TestSeedCorpus keeps the two in step. To regenerate the
// files after editing this list run:
//
//	UNIBOX_UPDATE_CORPUS=1 go test -run TestSeedCorpus ./model/textsafe/
var hostileSeeds = []struct{ name, text string }{
	{"csi-2j-clear", "Invoice\x1b[2J\x1b[Hpaid"},
	{"osc0-title", "\x1b]0;evil title\x07Hello"},
	{"osc8-hyperlink", "\x1b]8;;http://evil.example\x1b\\click me\x1b]8;;\x1b\\"},
	{"osc52-clipboard", "copy \x1b]52;c;ZXZpbA==\x07this"},
	{"dcs-decrqss", "a\x1bP1$r0m\x1b\\b"},
	{"csi-6n-dsr", "status\x1b[6n?"},
	{"c1-csi-8bit", "\u009b31mred\u009b0m"},
	{"c1-osc-dcs", "\u009d0;t\u0007\u0090q\u009cx"},
	{"bidi-override", "invoice\u202efdp.exe"},
	{"nul", "a\x00b\x00"},
	{"invalid-utf8", "\xff\xfe bad \xc3"},
	{"emoji-zwj-skin", "👩🏽‍💻 👨‍👩‍👧‍👦 👍🏿"},
	{"combining-marks", "e\u0301\u0302 Z\u0351\u0352\u0353"},
	{"shift-jis-mojibake", "\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd"},
	{"tabs-crlf-blank", "a\tb\r\n\r\n\r\n\r\n\tc  \r"},
	{"unterminated-osc", "ok\x1b]0;never"},
	{"esc-at-end", "x\x1b"},
	{"wide-cjk", "日本語のメール件名"},
}

func TestSeedCorpus(t *testing.T) {
	update := os.Getenv("UNIBOX_UPDATE_CORPUS") == "1"
	for _, target := range []string{"FuzzLine", "FuzzBlock"} {
		dir := filepath.Join("testdata", "fuzz", target)
		for _, s := range hostileSeeds {
			path := filepath.Join(dir, s.name)
			want := "go test fuzz v1\nstring(" + strconv.Quote(s.text) + ")\n"
			if update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("seed %s missing: %v (set UNIBOX_UPDATE_CORPUS=1)", path, err)
				continue
			}
			if string(got) != want {
				t.Errorf("seed %s is stale (set UNIBOX_UPDATE_CORPUS=1)", path)
			}
		}
	}
}

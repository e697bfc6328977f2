package binarytest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rivo/uniseg"

	"unibox/model/textsafe"
)

// termLocale is a locale a real-terminal test runs under: the LANG unibox
// sees, and the LOCPATH (locales built by the test, no root needed) from
// which tmux and unibox load it.
type termLocale struct {
	name    string
	lang    string
	locpath string
	wide    bool // tmux draws East Asian ambiguous-width characters wide
}

const (
	charmapDir = "/usr/share/i18n/charmaps"
	localeSrc  = "/usr/share/i18n/locales/ja_JP"
)

// eastAsianLocales builds two Japanese locales:
//   - "ja_JP": glibc's own, whose wcwidth draws ambiguous-width characters
//     narrow, as tmux does whatever the locale (it sets LC_CTYPE to
//     en_US.UTF-8 or C.UTF-8 before the user's). unibox's locale
//     convention says wide here; only asking the terminal gets it right.
//   - "ja_JP ambiguous wide": a charmap that makes every ambiguous-width
//     character two columns wide, also installed as en_US.UTF-8, the
//     first locale tmux tries: a real terminal that draws them wide, as
//     GNOME Terminal, iTerm2 or PuTTY do when set to.
func eastAsianLocales(t *testing.T) []termLocale {
	t.Helper()
	if _, err := os.Stat(localeSrc); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the locales package is missing (.ci/run installs it)")
		}
		t.Skip("no locale sources to build ja_JP from")
	}
	charmap := readCharmap(t)
	narrow, wide := t.TempDir(), t.TempDir()
	wideMap := wideAmbiguous(t, charmap)
	localedef(t, [][2]string{{charmap, filepath.Join(narrow, "ja_JP.UTF-8")},
		{wideMap, filepath.Join(wide, "ja_JP.UTF-8")}, {wideMap, filepath.Join(wide, "en_US.UTF-8")}})
	return []termLocale{
		{name: "ja_JP", lang: "ja_JP.UTF-8", locpath: narrow},
		{name: "ja_JP ambiguous wide", lang: "ja_JP.UTF-8", locpath: wide, wide: true},
	}
}

// readCharmap returns glibc's UTF-8 charmap, written to a file of the test.
func readCharmap(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join(charmapDir, "UTF-8.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "UTF-8")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wideAmbiguous writes a copy of charmap whose WIDTH table gives every
// East Asian ambiguous-width character (one column, or two on an East
// Asian terminal) two columns.
func wideAmbiguous(t *testing.T, charmap string) string {
	t.Helper()
	src, err := os.ReadFile(charmap)
	if err != nil {
		t.Fatal(err)
	}
	// The ambiguous set as uniseg knows it, which is what unibox measures
	// with (go-runewidth's table differs in places, ❤ for one).
	widthOf := func(wide bool) []int {
		textsafe.SetAmbiguousWide(wide)
		defer textsafe.SetAmbiguousWide(false)
		w := make([]int, 0x110000)
		for r := range w {
			w[r] = uniseg.StringWidth(string(rune(r)))
		}
		return w
	}
	narrow, wide := widthOf(false), widthOf(true)
	name := func(r rune) string {
		if r > 0xFFFF {
			return fmt.Sprintf("<U%08X>", r)
		}
		return fmt.Sprintf("<U%04X>", r)
	}
	var widths strings.Builder
	start := rune(-1)
	for r := rune(0); r <= 0x110000; r++ {
		amb := r < 0x110000 && narrow[r] == 1 && wide[r] == 2
		switch {
		case amb && start < 0:
			start = r
		case !amb && start >= 0:
			if start == r-1 {
				fmt.Fprintf(&widths, "%s\t2\n", name(start))
			} else {
				fmt.Fprintf(&widths, "%s...%s\t2\n", name(start), name(r-1))
			}
			start = -1
		}
	}
	out := string(src)
	i := strings.Index(out, "\nEND WIDTH")
	if i < 0 {
		t.Fatal("the charmap has no WIDTH table")
	}
	path := filepath.Join(t.TempDir(), "UTF-8-AMBIGUOUS-WIDE")
	if err := os.WriteFile(path, []byte(out[:i+1]+widths.String()+out[i+1:]), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// localedef compiles ja_JP with charmap into dir (a LOCPATH entry).
func localedef(t *testing.T, builds [][2]string) {
	t.Helper()
	// Side by side: each takes seconds, and the tests wait on them.
	outs := make([]string, len(builds))
	var wg sync.WaitGroup
	for i, b := range builds {
		wg.Go(func() {
			// -c: glibc's own sources draw warnings; the result is what counts.
			out, err := exec.Command("localedef", "--no-archive", "-c", "-i", localeSrc, "-f", b[0], b[1]).CombinedOutput()
			if _, serr := os.Stat(filepath.Join(b[1], "LC_CTYPE")); serr != nil {
				outs[i] = fmt.Sprintf("localedef %s: %v\n%s", b[1], err, out)
			}
		})
	}
	wg.Wait()
	for _, o := range outs {
		if o != "" {
			t.Fatal(o)
		}
	}
}

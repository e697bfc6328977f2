package attach

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// DefaultDir is where S saves when [ui] download_dir is not set: the
// XDG download folder that $XDG_CONFIG_HOME/user-dirs.dirs names
// (XDG_DOWNLOAD_DIR), else ~/Downloads. getenv is os.Getenv in use.
func DefaultDir(getenv func(string) string, home string) string {
	cfg := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(cfg) {
		cfg = filepath.Join(home, ".config")
	}
	if d := userDirsDownload(filepath.Join(cfg, "user-dirs.dirs"), home); d != "" {
		return d
	}
	return filepath.Join(home, "Downloads")
}

// userDirsDownload reads XDG_DOWNLOAD_DIR from a user-dirs.dirs file:
// lines of XDG_xxx_DIR="$HOME/yyy" or "/abs/path" (xdg-user-dirs' format,
// which has no other expansion). A folder set to $HOME itself means
// "disabled" there, and so does anything unreadable: "" then.
func userDirsDownload(path, home string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || strings.TrimSpace(k) != "XDG_DOWNLOAD_DIR" {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return ""
		}
		v = v[1 : len(v)-1]
		switch {
		case v == "$HOME" || v == "$HOME/":
			return ""
		case strings.HasPrefix(v, "$HOME/"):
			return filepath.Join(home, v[len("$HOME/"):])
		case filepath.IsAbs(v):
			return filepath.Clean(v)
		}
		return ""
	}
	return ""
}

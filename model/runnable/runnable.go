// Package runnable tells whether a file would run something when opened:
// a program, a script, a launcher. The TUI's open (enter) refuses those,
// judged by the name and by the first bytes, never by the media type the
// mail declares (a sender writes "application/pdf" on anything).
package runnable

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// HeadBytes is how much of a file Check needs to see.
const HeadBytes = 4096

// Refused says why a file is not opened.
type Refused struct {
	Name   string
	Reason string
}

func (r *Refused) Error() string {
	return fmt.Sprintf("not opened: %s %s (save it with S if you mean to keep it)", r.Name, r.Reason)
}

// extensions run, install or launch something on a common desktop when
// opened, or are scripts a viewer may hand to an interpreter.
var extensions = map[string]string{
	".exe": "a Windows program", ".com": "a DOS program", ".scr": "a Windows screen saver (a program)",
	".pif": "a Windows program link", ".msi": "a Windows installer", ".msp": "a Windows installer patch",
	".dll": "a Windows library", ".cpl": "a Windows control panel item", ".lnk": "a Windows shortcut",
	".bat": "a batch script", ".cmd": "a batch script", ".ps1": "a PowerShell script", ".psm1": "a PowerShell script",
	".vbs": "a VBScript", ".vbe": "a VBScript", ".js": "a script", ".jse": "a script", ".wsf": "a Windows script",
	".wsh": "a Windows script", ".hta": "an HTML application", ".reg": "a registry file", ".url": "an Internet shortcut",
	".sh": "a shell script", ".bash": "a shell script", ".zsh": "a shell script", ".csh": "a shell script",
	".ksh": "a shell script", ".fish": "a shell script", ".command": "a macOS shell script", ".tool": "a macOS shell script",
	".py": "a Python script", ".pyw": "a Python script", ".pl": "a Perl script", ".rb": "a Ruby script",
	".php": "a PHP script", ".lua": "a Lua script", ".tcl": "a Tcl script",
	".jar": "a Java program", ".class": "a Java program", ".apk": "an Android package",
	".app": "a macOS application", ".pkg": "a macOS installer", ".dmg": "a disk image",
	".desktop": "a desktop launcher", ".appimage": "a Linux program", ".run": "a Linux installer",
	".elf": "a Linux program", ".so": "a shared library", ".out": "a program", ".bin": "a program",
	".deb": "a package installer", ".rpm": "a package installer", ".flatpakref": "an application installer",
	".iso": "a disk image", ".img": "a disk image", ".vhd": "a disk image",
	".scf": "a Windows shell command", ".xbap": "a browser application", ".application": "a ClickOnce application",
	".gadget": "a Windows gadget", ".inf": "a Windows setup file", ".msc": "a Windows console snap-in",
}

// Check returns a *Refused when the file named name, starting with head
// (its first HeadBytes, or all of it), would run something when opened;
// nil otherwise. Every extension of the name counts ("x.sh.txt" is still
// a text file; "x.txt.sh" is a script), as does the content's magic.
func Check(name string, head []byte) error {
	ext := strings.ToLower(filepath.Ext(strings.TrimRight(name, " .")))
	if why, ok := extensions[ext]; ok {
		return &Refused{Name: name, Reason: "is " + why + " (by its name)"}
	}
	if why := magic(head); why != "" {
		return &Refused{Name: name, Reason: "is " + why + " (by its content)"}
	}
	return nil
}

// magic names what head starts as, or "".
func magic(head []byte) string {
	h := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	switch {
	case bytes.HasPrefix(h, []byte("\x7fELF")):
		return "a Linux program (ELF)"
	case bytes.HasPrefix(h, []byte("MZ")):
		return "a Windows program (PE)"
	case hasAny(h, "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe", "\xca\xfe\xba\xbf"):
		return "a macOS program (Mach-O) or Java class"
	case bytes.HasPrefix(h, []byte("#!")):
		return "a script (#!)"
	case desktopEntry(h):
		return "a desktop launcher ([Desktop Entry])"
	}
	return ""
}

func hasAny(h []byte, prefixes ...string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(h, []byte(p)) {
			return true
		}
	}
	return false
}

// desktopEntry reports a freedesktop launcher: its first group header is
// [Desktop Entry], after blank lines and # comments.
func desktopEntry(h []byte) bool {
	for _, line := range bytes.Split(h, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0 || line[0] == '#':
			continue
		case bytes.HasPrefix(line, []byte("[Desktop Entry]")):
			return true
		}
		return false
	}
	return false
}

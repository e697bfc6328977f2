package compose

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// The editor a draft is written in: the person's own, run as git runs
// core.editor, its failures put in words that say what to fix.

// editorCommand runs the editor on path the way git runs core.editor:
// through the shell, so "code --wait" or "nvim -u NONE" work, with the
// path as an argument the shell never parses.
func editorCommand(editor, path string) *exec.Cmd {
	return exec.Command("/bin/sh", "-c", editorOf(editor)+` "$1"`, "unibox-editor", path)
}

// editorOf is the editor to run: [compose] editor, else $VISUAL, else
// $EDITOR, else vi.
func editorOf(editor string) string {
	if editor == "" {
		editor = os.Getenv("VISUAL")
	}
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	return editor
}

// editorError puts the shell's word for a missing editor (exit status
// 127) or one it cannot run (126) into words that say what to fix: the
// shell's own message went to the screen the TUI draws over.
func editorError(editor string, err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		switch ee.ExitCode() {
		case 127:
			return fmt.Errorf("%q was not found (exit status 127): check [compose] editor, $VISUAL, $EDITOR", editorOf(editor))
		case 126:
			return fmt.Errorf("%q cannot be run (exit status 126): check [compose] editor, $VISUAL, $EDITOR", editorOf(editor))
		}
	}
	return err
}

package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"unibox/model/compose"
)

// Signature is what an account (or one of its aliases) signs new
// messages, replies and forwards with: a file read at load, or a command
// run each time a message is started (a signature that changes: a quote
// of the day, a calendar line). Either way its text is held to the
// review's rule (compose.CheckShowable): a signature is sent under the
// person's name and must show on the review screen as it goes.
type Signature struct {
	File string   // signature_file (or an alias's), resolved; Text is its text
	Text string   // without the "-- " line
	Cmd  []string // signature_cmd: a program and its arguments, no shell
}

// maxSignature bounds a signature's bytes: more is not a signature but
// the wrong file (or a command that runs away).
const maxSignature = 16 << 10

// signatures reads signature_file, signature_cmd and signatures (an
// alias's own file). It runs after from and aliases are known: an
// address in signatures must be one of them.
func signatures(t *table, a *Account) {
	dir := filepath.Dir(t.is.file)
	if s, ok := t.str("signature_file"); ok {
		if sig := signatureFile(t, "signature_file", s, dir); sig != nil {
			a.Signature = sig
		}
	}
	if list, ok := t.argv("signature_cmd", `["fortune", "-s"] (its output is the signature)`); ok {
		if t.has("signature_file") {
			t.errorf("signature_cmd", "set only one of signature_file and signature_cmd")
		} else {
			a.Signature = &Signature{Cmd: list}
		}
	}
	sub, ok := t.sub("signatures")
	if !ok {
		return
	}
	for _, addr := range sortedKeys(sub.m) {
		path, ok := sub.str(addr)
		if !ok {
			continue
		}
		own := ownAddress(a, addr)
		if own == "" {
			sub.errorf(addr, "%q is not this account's from or one of its aliases: a signature is for an address it sends from", addr)
			continue
		}
		if sig := signatureFile(sub, addr, path, dir); sig != nil {
			if a.AliasSignatures == nil {
				a.AliasSignatures = map[string]*Signature{}
			}
			a.AliasSignatures[strings.ToLower(own)] = sig
		}
	}
	sub.finish()
}

// ownAddress is the account's own address that s names (its from or an
// alias, case ignored), or "".
func ownAddress(a *Account, s string) string {
	p, err := mail.ParseAddress(s)
	if err != nil || hasControl(s) {
		return ""
	}
	own := slices.Clone(a.Aliases)
	if a.From != nil {
		own = append(own, a.From.Address)
	}
	for _, o := range own {
		if strings.EqualFold(o, p.Address) {
			return o
		}
	}
	return ""
}

// signatureFile reads a signature file now, so that a missing, oversized
// or unshowable one is a FILE:LINE error at start, naming the file. A
// relative path is relative to the config file; "~/" is the home
// directory.
func signatureFile(t *table, key, s, dir string) *Signature {
	if strings.TrimSpace(s) == "" || hasControl(s) {
		t.errorf(key, "must be a file's path, without control characters")
		return nil
	}
	path := expandPath(s, dir)
	text, err := readSignature(path)
	if err != nil {
		t.errorf(key, "%v", err)
		return nil
	}
	return &Signature{File: path, Text: text}
}

// readSignature reads a regular file of at most maxSignature bytes and
// returns its text as CleanSignature makes it, checked.
func readSignature(path string) (string, error) {
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s does not exist", path)
	case err != nil:
		return "", fmt.Errorf("cannot read %s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSignature+1))
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", path, err)
	}
	return CleanSignature(path, data)
}

// CleanSignature is a signature's text as it is sent: line ends LF, a
// "-- " line the file begins with taken off (unibox writes it), the
// blank lines at its end dropped, and refused (an error naming what,
// the file or the command) when it is over maxSignature bytes or holds
// a character the review refuses (compose.CheckShowable).
func CleanSignature(what string, data []byte) (string, error) {
	if len(data) > maxSignature {
		return "", fmt.Errorf("%s is over %d bytes: a signature is a few lines", what, maxSignature)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, sep := range []string{"-- \n", "--\n"} {
		text = strings.TrimPrefix(text, sep)
	}
	text = strings.TrimRight(text, "\n")
	if err := compose.CheckShowable(what, text, true); err != nil {
		return "", fmt.Errorf("refused: %w", err)
	}
	return text, nil
}

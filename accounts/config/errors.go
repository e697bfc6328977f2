package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrNotFound is matched (errors.Is) by Load's error when the config file
// does not exist, so the caller can offer to create one instead of failing.
var ErrNotFound = errors.New("config file not found")

// Error is one problem with a config file. Every error from Load and Parse
// is an *Error or an errors.Join of several, sorted by line, so an editor
// (or a human) can jump straight to each one.
type Error struct {
	File string // the path as given to Load or Parse
	Line int    // 1-based; 0 when the problem is not on a line (unreadable file)
	Key  string // key path such as account[1].security; empty for syntax errors
	Msg  string
	err  error // the cause, for errors.Is / errors.As
}

// Error reads FILE:LINE: KEY: MSG; the line and the key are left out when
// unknown, never printed as zero or empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.File == "" {
		b.WriteString("config")
	}
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Unwrap exposes the cause (ErrNotFound, an fs error, a toml.ParseError).
func (e *Error) Unwrap() error { return e.err }

// issues collects the problems found in one file so they can all be
// reported together instead of one per edit-and-retry cycle.
type issues struct {
	file  string
	list  []*Error
	warns []*Error
}

func (is *issues) add(line int, key, format string, args ...any) {
	is.list = append(is.list, &Error{File: is.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// warn records a problem that does not stop unibox.
func (is *issues) warn(line int, key, format string, args ...any) {
	is.warns = append(is.warns, &Error{File: is.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// warnings formats the warnings like errors, in line order.
func (is *issues) warnings() []string {
	sorted := slices.Clone(is.warns)
	slices.SortStableFunc(sorted, func(a, b *Error) int { return a.Line - b.Line })
	out := make([]string, len(sorted))
	for i, w := range sorted {
		out[i] = w.Error()
	}
	return out
}

// err returns nil, the single *Error, or all of them joined in line order.
func (is *issues) err() error {
	switch len(is.list) {
	case 0:
		return nil
	case 1:
		return is.list[0]
	}
	sorted := slices.Clone(is.list)
	slices.SortStableFunc(sorted, func(a, b *Error) int { return a.Line - b.Line })
	errs := make([]error, len(sorted))
	for i, e := range sorted {
		errs[i] = e
	}
	return errors.Join(errs...)
}

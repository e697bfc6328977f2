package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// maxFileSize bounds what Load reads: a config file is a few kilobytes,
// and anything near this size is the wrong file.
const maxFileSize = 1 << 20

// DefaultPath is $XDG_CONFIG_HOME/unibox/config.toml, or
// ~/.config/unibox/config.toml when XDG_CONFIG_HOME is unset or relative
// (the XDG spec says to ignore relative values). It is "" when neither
// that nor a home directory is known.
func DefaultPath() string {
	if dir := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "unibox", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "unibox", "config.toml")
}

// Load reads, parses and validates the config file at path ("" means
// DefaultPath). A missing file is an error matching ErrNotFound. Load also
// warns when a file holding secret-looking values is readable by others.
func Load(path string) (*Config, error) {
	if path == "" {
		if path = DefaultPath(); path == "" {
			return nil, &Error{File: "config", Msg: "no config path: neither XDG_CONFIG_HOME nor HOME is set", err: ErrNotFound}
		}
	}
	data, mode, err := readFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if mode&0o044 != 0 && len(cfg.secrets) > 0 {
		w := &Error{File: path, Msg: fmt.Sprintf(
			"the file is readable by other users (mode %04o) and holds secret-looking values (%s); run: chmod 600 %s",
			mode.Perm(), cfg.secrets[0], path)}
		cfg.Warnings = append([]string{w.Error()}, cfg.Warnings...)
	}
	return cfg, nil
}

// readFile reads a regular file of sane size and returns its mode too, so
// the permission check sees the same file that was parsed.
func readFile(path string) ([]byte, fs.FileMode, error) {
	fail := func(cause error, format string, args ...any) ([]byte, fs.FileMode, error) {
		return nil, 0, &Error{File: path, Msg: fmt.Sprintf(format, args...), err: cause}
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fail(fmt.Errorf("%w: %w", ErrNotFound, err),
			"no such file; copy config.example.toml there and edit it")
	}
	if err != nil {
		return fail(err, "cannot open: %v", errors.Unwrap(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fail(err, "cannot stat: %v", err)
	}
	if !st.Mode().IsRegular() {
		return fail(nil, "not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return fail(err, "cannot read: %v", err)
	}
	if len(data) > maxFileSize {
		return fail(nil, "larger than %d bytes; is this really a unibox config file?", maxFileSize)
	}
	return data, st.Mode(), nil
}

// Parse decodes and validates config text; path only labels errors and is
// kept in Config.Path. All problems are reported together (see Error).
func Parse(path string, data []byte) (*Config, error) {
	tree, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	is := &issues{file: path}
	cfg := build(newTable(is, locate(string(data)), "", tree))
	if err := is.err(); err != nil {
		return nil, err
	}
	cfg.Path = path
	cfg.Warnings = is.warnings()
	return cfg, nil
}

// decode reads a TOML file's text into its generic tree; a syntax error
// names the file and the line.
func decode(path string, data []byte) (map[string]any, error) {
	var tree map[string]any
	if _, err := toml.Decode(string(data), &tree); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: path, Line: pe.Position.Line, Msg: pe.Message, err: err}
		}
		return nil, &Error{File: path, Msg: err.Error(), err: err}
	}
	return tree, nil
}

package cli

import (
	"errors"
	"fmt"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/model/compose"
	"unibox/model/textsafe"
	"unibox/ui/launch"
)

// `unibox send --attach PATH` holds a script's files to what the TUI
// holds a person's Attach lines to (drafting.ReadFile): only a regular
// file, its size checked against the account's limit before it is read.
// The message is wrapped in multipart/mixed (compose.WrapMixed), which a
// signed or encrypted message refuses, and the whole must fit the SIZE
// the account's server last announced, as on the review screen.

// attachFiles is raw with the files at paths attached (raw itself when
// there are none); the first file refused is the error, naming it.
func attachFiles(raw []byte, paths []string, limit drafting.Limit) ([]byte, error) {
	if len(paths) == 0 {
		return raw, nil
	}
	var parts []compose.Part
	for _, p := range paths {
		part, err := drafting.ReadFile(p, limit)
		var ae *drafting.AttachError
		if errors.As(err, &ae) {
			return nil, fmt.Errorf("--attach %s: %w", textsafe.Line(p), ae.Err)
		}
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", textsafe.Line(p), err)
		}
		parts = append(parts, part)
	}
	out, err := compose.WrapMixed(raw, parts)
	if err != nil {
		return nil, fmt.Errorf("--attach: %w", err)
	}
	return out, nil
}

// sizeLimit is the account's limit as its outbox remembers it (the
// default when the outbox could not be opened).
func sizeLimit(a *accounts.Account, room *launch.Mailroom) drafting.Limit {
	if room == nil || room.Box == nil {
		return drafting.DefaultLimit
	}
	return drafting.SizeLimit(room.Box, a.Name())
}

// fits refuses a prepared message over limit, before anything is queued.
func fits(p compose.Prepared, limit drafting.Limit) error {
	if limit.Bytes > 0 && int64(len(p.Wire)) > limit.Bytes {
		return fmt.Errorf("--attach: %w: the message is %s once encoded, over %s", drafting.ErrTooBig,
			drafting.SizeWords(int64(len(p.Wire))), limit.Words())
	}
	return nil
}

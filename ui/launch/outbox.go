package launch

import (
	"fmt"
	"os"

	"unibox/accounts/send/outbox"
)

// Outbox opens the drafts and the outbox: under $XDG_DATA_HOME/unibox
// (never in the store, a cache that may be set aside), or with --demo in
// a private temp folder that Close removes: the demo writes nothing that
// outlives it. Opened once per Env.
func (e *Env) Outbox() (*outbox.Box, error) {
	if e.box != nil {
		return e.box, nil
	}
	root, err := e.outboxRoot()
	if err != nil {
		return nil, err
	}
	b, err := outbox.Open(root)
	if err != nil {
		return nil, fmt.Errorf("open the outbox: %w", err)
	}
	e.box = b
	return b, nil
}

func (e *Env) outboxRoot() (string, error) {
	if e.demo == nil {
		return outbox.DefaultRoot()
	}
	if e.demoData == "" {
		dir, err := os.MkdirTemp("", "unibox-demo-")
		if err != nil {
			return "", fmt.Errorf("the demo's outbox: %w", err)
		}
		e.demoData = dir
	}
	return e.demoData, nil
}

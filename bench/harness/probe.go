package main

import (
	"fmt"
	"time"
)

// probe runs one program with its first account down for 8 s and prints
// its screen each second: how to learn what a program shows.
func probe(t *terminal, root string, o options) error {
	closed, err := closedPort()
	if err != nil {
		return err
	}
	h, err := newHome(root, o.down)
	if err != nil {
		return err
	}
	accts := accountsFor(o.addr, 3, map[int]bool{0: true}, closed)
	var p *pane
	switch o.down {
	case "aerc":
		if err := h.aercConfig(accts); err != nil {
			return err
		}
		p, err = t.run("probe", h.env(), o.aerc)
	default:
		cfg, err2 := h.uniboxConfig(accts)
		if err2 != nil {
			return err2
		}
		p, err = t.run("probe", append(h.env(), passwordEnv()...), o.unibox, "--config", cfg)
	}
	if err != nil {
		return err
	}
	defer p.stop()
	for i := range 4 {
		time.Sleep(time.Second)
		s, _ := p.screen()
		fmt.Printf("--- %d s\n%s\n", i+1, s)
	}
	return nil
}

package main

import (
	"fmt"
	"os/exec"
	"time"
)

// soakRun keeps o.accounts accounts open in unibox for o.soak: every
// minute new mail for every user (pushed over IDLE), a refresh of every
// account (R) and one user's IMAP sessions kicked by Dovecot (the
// accounts of that user reconnect). The memory of the whole tree is read
// every 30 s; the figure is its growth from the fifth minute to the end.
func soakRun(t *terminal, root string, o options) error {
	if o.dovecotDir == "" {
		return fmt.Errorf("soak: UNIBOX_DOVECOT_DIR (from .ci/dovecot.sh) is needed to kick sessions")
	}
	accts := accountsFor(o.addr, o.accounts, nil, "")
	h, err := newHome(root, "soak")
	if err != nil {
		return err
	}
	cfg, err := h.uniboxConfig(accts)
	if err != nil {
		return err
	}
	p, err := t.run("usoak", append(h.env(), passwordEnv()...), o.unibox, "--config", cfg)
	if err != nil {
		return err
	}
	defer p.stop()
	if _, err := p.waitFor("rows", screenLimit, containsAny(newest(users[0]))); err != nil {
		return err
	}
	start := time.Now()
	sample := time.NewTicker(30 * time.Second)
	defer sample.Stop()
	weather := time.NewTicker(time.Minute)
	defer weather.Stop()
	var at5 float64
	var last float64
	minute := 0
	fmt.Printf("soak: %d accounts for %s; every minute new mail for every user, R, one user kicked\n", o.accounts, time.Duration(o.soak))
	fmt.Printf("  %8s %12s %12s %16s\n", "elapsed", "PSS MiB", "main MiB", "child priv MiB")
	for time.Since(start) < time.Duration(o.soak) {
		select {
		case <-weather.C:
			minute++
			for _, u := range users {
				if err := push(o.addr, u, fmt.Sprintf("soak %s minute %d", u, minute)); err != nil {
					return fmt.Errorf("soak: new mail: %w", err)
				}
			}
			if err := p.keys("R"); err != nil {
				return err
			}
			u := users[minute%len(users)]
			if out, err := exec.Command("bash", ".ci/dovecot.sh", "kick", o.dovecotDir, u).CombinedOutput(); err != nil {
				fmt.Printf("  (kick %s: %v %s)\n", u, err, out)
			}
		case <-sample.C:
			ms := treeMemory(p.pid)
			var pss, mainPSS int
			var priv []int
			for _, m := range ms {
				pss += m.PSS
				if m.PID == p.pid {
					mainPSS = m.PSS
				} else {
					priv = append(priv, m.Private)
				}
			}
			el := time.Since(start).Round(time.Second)
			last = mib(pss)
			if at5 == 0 && el >= 5*time.Minute {
				at5 = last
			}
			childMedian := 0
			if len(priv) > 0 {
				childMedian = medianInt(priv)
			}
			fmt.Printf("  %8s %12.1f %12.1f %16.2f\n", el, last, mib(mainPSS), mib(childMedian))
		}
	}
	if at5 > 0 {
		fmt.Printf("growth of PSS from minute 5 to the end: %+.1f %%\n", (last-at5)/at5*100)
	}
	return nil
}

package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// memoryRun starts unibox (and aerc) with o.accounts accounts on the
// Dovecot users, lets them stay connected for o.settle, refreshes every
// account once, waits o.after for the refresh to settle and reads the
// memory of each program's process tree.
func memoryRun(t *terminal, root string, o options) error {
	accts := accountsFor(o.addr, o.accounts, nil, "")
	h, err := newHome(root, "unibox")
	if err != nil {
		return err
	}
	cfg, err := h.uniboxConfig(accts)
	if err != nil {
		return err
	}
	p, err := t.run("umem", append(h.env(), passwordEnv()...), o.unibox, "--config", cfg)
	if err != nil {
		return err
	}
	if _, err := p.waitFor("rows", screenLimit, containsAny(newest(users[0]))); err != nil {
		p.stop()
		return err
	}
	time.Sleep(time.Duration(o.settle))
	if err := p.keys("R"); err != nil { // refresh all
		p.stop()
		return err
	}
	time.Sleep(time.Duration(o.after))
	uni := treeMemory(p.pid)
	p.stop()
	report("unibox", uni, o)

	if o.aerc != "" {
		ha, err := newHome(root, "aerc")
		if err != nil {
			return err
		}
		if err := ha.aercConfig(accts); err != nil {
			return err
		}
		pa, err := t.run("amem", ha.env(), o.aerc)
		if err != nil {
			return err
		}
		if _, err := pa.waitFor("rows", screenLimit, containsAny(newest(users[0]))); err != nil {
			pa.stop()
			return err
		}
		time.Sleep(time.Duration(o.settle) + time.Duration(o.after))
		ae := treeMemory(pa.pid)
		pa.stop()
		report("aerc", ae, o)
	}
	return nil
}

// report prints a tree's memory: in all, and per kind of process.
func report(name string, ms []memory, o options) {
	var pss, priv int
	kinds := map[string][]memory{}
	for _, m := range ms {
		if strings.HasPrefix(m.Command, "sh ") || m.Command == "" {
			continue // the harness's own holder shell, gone after exec
		}
		pss += m.PSS
		priv += m.Private
		kind := "main"
		if strings.Contains(m.Command, "serve-imap") {
			kind = "serve-imap"
		}
		kinds[kind] = append(kinds[kind], m)
	}
	fmt.Printf("%s, %d accounts, %s connected and one refresh: %d processes, %.1f MiB PSS in all, %.1f MiB private\n",
		name, o.accounts, time.Duration(o.settle), len(ms), mib(pss), mib(priv))
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		var p, pr, an []int
		for _, m := range kinds[k] {
			p, pr, an = append(p, m.PSS), append(pr, m.Private), append(an, m.Anon)
		}
		fmt.Printf("  %-10s x%-2d PSS median %.1f MiB, private median %.1f MiB (max %.1f), anonymous median %.1f MiB\n",
			k, len(kinds[k]), mib(medianInt(p)), mib(medianInt(pr)), mib(maxInt(pr)), mib(medianInt(an)))
	}
}

func mib(kb int) float64 { return float64(kb) / 1024 }

func medianInt(v []int) int {
	s := append([]int(nil), v...)
	sort.Ints(s)
	return s[len(s)/2]
}

func maxInt(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// figure is one measured quantity: its runs, printed as their median.
type figure struct {
	name string
	runs []time.Duration
}

func (f *figure) median() time.Duration {
	s := slices.Clone(f.runs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

const screenLimit = 30 * time.Second

// launch measures, run after run and program after program interleaved
// (so a slow minute of the machine hits both alike):
//   - cold: the first rows of a 3-account launch on an empty store
//     (unibox's first row of the unified inbox; aerc's first account's),
//     and for unibox every account's first row;
//   - warm: the same launch again on the store the cold one left;
//   - down: the first account's port refuses; how soon its badge (unibox)
//     or its error line (aerc) says so;
//   - list: `unibox list --json --limit 40` on one account, cold and warm.
func launch(t *terminal, root string, o options) error {
	figs := map[string]*figure{}
	add := func(name string, d time.Duration) {
		if figs[name] == nil {
			figs[name] = &figure{name: name}
		}
		figs[name].runs = append(figs[name].runs, d)
	}
	closed, err := closedPort()
	if err != nil {
		return err
	}
	up := accountsFor(o.addr, 3, nil, "")
	down := accountsFor(o.addr, 3, map[int]bool{0: true}, closed)
	for run := range o.runs {
		h, err := newHome(root, "unibox")
		if err != nil {
			return err
		}
		cfg, err := h.uniboxConfig(up)
		if err != nil {
			return err
		}
		for _, temp := range []string{"cold", "warm"} {
			first, all, err := uniboxRows(t, h, cfg, fmt.Sprintf("u%s%d", temp, run), o)
			if err != nil {
				return err
			}
			add("unibox "+temp+" first rows", first)
			add("unibox "+temp+" all 3 accounts' rows", all)
		}
		if o.aerc != "" {
			d, err := aercRows(t, root, up, fmt.Sprintf("a%d", run), o)
			if err != nil {
				return err
			}
			add("aerc first rows", d)
		}
		d, err := uniboxDown(t, root, down, fmt.Sprintf("ud%d", run), o)
		if err != nil {
			return err
		}
		add("unibox down account's error", d)
		if o.aerc != "" {
			d, err := aercDown(t, root, down, fmt.Sprintf("ad%d", run), o)
			if err != nil {
				return err
			}
			add("aerc down account's error", d)
		}
		cold, warm, err := uniboxList(root, o)
		if err != nil {
			return err
		}
		add("unibox list --limit 40 cold", cold)
		add("unibox list --limit 40 warm", warm)
	}
	fmt.Printf("launch figures, median of %d runs (loopback Dovecot, %d messages per INBOX, 160x45 tmux)\n", o.runs, o.messages)
	for _, name := range []string{
		"unibox cold first rows", "unibox cold all 3 accounts' rows", "unibox warm first rows", "unibox warm all 3 accounts' rows", "aerc first rows",
		"unibox down account's error", "aerc down account's error",
		"unibox list --limit 40 cold", "unibox list --limit 40 warm",
	} {
		if f := figs[name]; f != nil {
			fmt.Printf("  %-36s %7.1f ms  (runs: %s)\n", name, ms(f.median()), runList(f.runs))
		}
	}
	if a := figs["aerc first rows"]; a != nil {
		fmt.Printf("  ratio cold first rows unibox/aerc:  %.2fx\n", ms(figs["unibox cold first rows"].median())/ms(a.median()))
		fmt.Printf("  ratio warm first rows unibox/aerc:  %.2fx\n", ms(figs["unibox warm first rows"].median())/ms(a.median()))
	}
	if a := figs["aerc down account's error"]; a != nil {
		fmt.Printf("  ratio down account's error unibox/aerc: %.2fx\n", ms(figs["unibox down account's error"].median())/ms(a.median()))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func runList(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, fmt.Sprintf("%.0f", ms(d)))
	}
	return strings.Join(s, " ")
}

func uniboxRows(t *terminal, h home, cfg, name string, o options) (first, all time.Duration, err error) {
	p, err := t.run(name, append(h.env(), passwordEnv()...), o.unibox, "--config", cfg)
	if err != nil {
		return 0, 0, err
	}
	defer p.stop()
	var names []string
	for _, u := range users {
		names = append(names, newest(u))
	}
	if first, err = p.waitFor("first row", screenLimit, containsAny(names...)); err != nil {
		return 0, 0, err
	}
	all, err = p.waitFor("every account's row", screenLimit, contains(names...))
	return first, all, err
}

func aercRows(t *terminal, root string, accts []account, name string, o options) (time.Duration, error) {
	h, err := newHome(root, "aerc")
	if err != nil {
		return 0, err
	}
	if err := h.aercConfig(accts); err != nil {
		return 0, err
	}
	p, err := t.run(name, h.env(), o.aerc)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	return p.waitFor("first row", screenLimit, containsAny(newest(accts[0].user)))
}

// downBadge: the first account's badge in a state that says it is not
// reachable (reconnecting, cooling down, disconnected).
func downBadge(acct string) func(string) bool {
	return containsAny(acct+" ↻", acct+" ⏸", acct+" ○", acct+" ✗")
}

func uniboxDown(t *terminal, root string, accts []account, name string, o options) (time.Duration, error) {
	h, err := newHome(root, "unibox")
	if err != nil {
		return 0, err
	}
	cfg, err := h.uniboxConfig(accts)
	if err != nil {
		return 0, err
	}
	p, err := t.run(name, append(h.env(), passwordEnv()...), o.unibox, "--config", cfg)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	return p.waitFor("down badge", screenLimit, downBadge(accts[0].name))
}

func aercDown(t *terminal, root string, accts []account, name string, o options) (time.Duration, error) {
	h, err := newHome(root, "aerc")
	if err != nil {
		return 0, err
	}
	if err := h.aercConfig(accts); err != nil {
		return 0, err
	}
	p, err := t.run(name, h.env(), o.aerc)
	if err != nil {
		return 0, err
	}
	defer p.stop()
	return p.waitFor("connection refused", screenLimit, containsAny("connection refused"))
}

// uniboxList times `unibox list --json --limit 40` on one account, on an
// empty store and again on the store it left.
func uniboxList(root string, o options) (cold, warm time.Duration, err error) {
	h, err := newHome(root, "list")
	if err != nil {
		return 0, 0, err
	}
	cfg, err := h.uniboxConfig(accountsFor(o.addr, 1, nil, ""))
	if err != nil {
		return 0, 0, err
	}
	once := func() (time.Duration, error) {
		cmd := exec.Command(o.unibox, "list", "--json", "--limit", "40", "--config", cfg)
		cmd.Env = append(h.env(), passwordEnv()...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("unibox list: %v: %s", err, out)
		}
		return time.Since(start), nil
	}
	if cold, err = once(); err != nil {
		return 0, 0, err
	}
	warm, err = once()
	return cold, warm, err
}

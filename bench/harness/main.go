// Command harness measures unibox beside aerc on a loopback Dovecot: how
// soon the first rows of a cold launch show, how soon a down account's
// error shows, and how much memory twenty accounts take (see ../README.md;
// ../run.sh starts Dovecot and builds the binary first).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: harness launch|memory|soak|probe [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	o := options{}
	fs.StringVar(&o.unibox, "unibox", "", "the unibox binary to measure")
	fs.StringVar(&o.baseline, "baseline", "", "another unibox binary measured beside it (launch), e.g. the last release")
	fs.StringVar(&o.aerc, "aerc", "aerc", "the aerc binary to measure beside it (\"\" for none)")
	fs.IntVar(&o.runs, "runs", 5, "runs of each figure (the median is printed)")
	fs.IntVar(&o.messages, "messages", 2000, "messages in each user's INBOX")
	fs.IntVar(&o.accounts, "accounts", 20, "accounts of the memory and soak runs")
	fs.DurationVar(&o.settle, "settle", 60e9, "memory: how long the accounts stay connected before the refresh")
	fs.DurationVar(&o.after, "after", 5e9, "memory: how long after the refresh the memory is read")
	fs.DurationVar(&o.soak, "duration", 30*60e9, "soak: how long")
	fs.StringVar(&o.down, "down", "", "probe: run this program (unibox|aerc) with its first account down")
	_ = fs.Parse(os.Args[2:])
	o.addr = os.Getenv("UNIBOX_DOVECOT_ADDR")
	o.dovecotDir = os.Getenv("UNIBOX_DOVECOT_DIR")
	if o.unibox == "" || o.addr == "" {
		fmt.Fprintln(os.Stderr, "harness: -unibox and UNIBOX_DOVECOT_ADDR (from .ci/dovecot.sh) are needed; bench/run.sh sets both")
		os.Exit(2)
	}
	if o.aerc != "" {
		if p, err := exec.LookPath(o.aerc); err != nil {
			fmt.Fprintf(os.Stderr, "harness: no aerc (%v): unibox alone\n", err)
			o.aerc = ""
		} else {
			o.aerc = p
		}
	}
	if err := run(os.Args[1], o); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

type options struct {
	unibox, aerc     string
	baseline         string
	addr, dovecotDir string
	runs, messages   int
	accounts         int
	settle, soak     durationFlag
	after            durationFlag
	down             string
}

type durationFlag = time.Duration

func run(what string, o options) error {
	root, err := os.MkdirTemp("", "unibench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	if err := seed(o.addr, o.messages); err != nil {
		return err
	}
	t, err := newTerminal(160, 45)
	if err != nil {
		return err
	}
	defer t.close()
	switch what {
	case "launch":
		return launch(t, root, o)
	case "memory":
		return memoryRun(t, root, o)
	case "soak":
		return soakRun(t, root, o)
	case "probe":
		return probe(t, root, o)
	}
	return fmt.Errorf("unknown measurement %q", what)
}

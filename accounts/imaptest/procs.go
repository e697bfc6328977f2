package imaptest

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
)

// ChildPIDs lists the live child processes of this process: tests check
// that no provider child is left behind (and find one to kill).
func ChildPIDs() []int {
	var kids []int
	entries, _ := os.ReadDir("/proc")
	me := os.Getpid()
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		var ppid int
		if len(f) > 1 {
			fmt.Sscanf(f[1], "%d", &ppid)
		}
		if ppid == me {
			kids = append(kids, pid)
		}
	}
	return kids
}

// HungServer accepts connections on 127.0.0.1 and never says a word: an
// account whose mail server hangs. It returns the port.
func HungServer(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var conns []net.Conn
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().(*net.TCPAddr).Port
}

// ClosedPort is a port on 127.0.0.1 nothing listens on: dials are refused.
func ClosedPort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return p
}

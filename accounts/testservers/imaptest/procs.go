package imaptest

import (
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
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

// ClosedPort is a port on 127.0.0.1 nothing listens on: dials are refused
// (ECONNREFUSED) until the test ends.
//
// The port is held, not merely found free: a TCP socket is bound to
// 127.0.0.1:0 and never listens, and it stays open until the test's
// cleanup. Linux answers a SYN to a port with no listening socket with an
// RST, so a dial is refused; and because the port stays bound (without
// SO_REUSEADDR, which would let another socket bind it beside ours),
// nobody else can have it: not a Listen(":0") in another test binary
// running at the same time, nor the source port of some outgoing
// connection. Binding a port and closing it at once, as this used to do,
// only named a port that was free for a moment, and under load another
// test's server could take it, so a test expecting "connection refused"
// met a live server.
func ClosedPort(t testing.TB) int {
	t.Helper()
	// As package net does where socket(2) takes no SOCK_CLOEXEC: no child
	// process started meanwhile inherits the socket (and the port).
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatalf("closed port: socket: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("closed port: bind 127.0.0.1:0: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("closed port: getsockname: %v", err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}

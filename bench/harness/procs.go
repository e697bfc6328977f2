package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// processTree is pid and every descendant, read from /proc.
func processTree(pid int) []int {
	parents := map[int][]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		child, _ := strconv.Atoi(strings.Fields(s)[0])
		ppid, _ := strconv.Atoi(f[1])
		parents[ppid] = append(parents[ppid], child)
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, parents[out[i]]...)
	}
	return out
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// memory is one process's figures from /proc/PID/smaps_rollup, in KiB.
type memory struct {
	PID     int
	Command string
	PSS     int
	Private int // Private_Clean + Private_Dirty
	Anon    int
}

func memoryOf(pid int) (memory, bool) {
	m := memory{PID: pid}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return m, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "Pss":
			m.PSS = n
		case "Private_Clean", "Private_Dirty":
			m.Private += n
		case "Anonymous":
			m.Anon = n
		}
	}
	cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	m.Command = strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))
	return m, true
}

// treeMemory is the memory of pid's process tree, without the `env`
// and shell wrappers that exec away (they are gone by then anyway).
func treeMemory(pid int) []memory {
	var out []memory
	for _, p := range processTree(pid) {
		if m, ok := memoryOf(p); ok {
			out = append(out, m)
		}
	}
	return out
}

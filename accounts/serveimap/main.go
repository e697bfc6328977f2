package serveimap

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main is `unibox serve-imap`: the MCP server on stdin/stdout, diagnostics
// on stderr (the parent keeps a bounded tail of it). It returns when the
// parent closes stdin.
func Main(args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve-imap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("command-timeout", 15*time.Second, "deadline of every IMAP command")
	verbose := fs.Bool("v", false, "log every account operation to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := Serve(ctx, Options{CommandTimeout: *timeout, Logger: logger, RestAfter: time.Second}, stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "serve-imap:", err)
		return 1
	}
	return 0
}

//go:build deps

package main

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/charmbracelet/bubbles/key"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/creack/pty"
	_ "github.com/emersion/go-imap/v2/imapclient"
	_ "github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	_ "github.com/emersion/go-message/charset"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/muesli/termenv"
	_ "go.uber.org/goleak"
	_ "golang.org/x/net/html"
	_ "golang.org/x/text/encoding/charmap"
)

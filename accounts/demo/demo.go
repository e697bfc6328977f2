// Package demo is `unibox --demo`: three in-process IMAP servers on
// 127.0.0.1 with a realistic mailbox each, reached through real `unibox
// serve-imap` children exactly like configured accounts. One account is
// flaky on a schedule, so a newcomer watches the weather: connected, then
// down (cooling down with a countdown), then connected again.
package demo

import (
	"context"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
)

// Order is the demo accounts in display order.
var Order = []string{"Work", "Personal", "Yahoo"}

// Flaky is the account whose server drops connections and then refuses
// new ones for a while, on a schedule.
const Flaky = "Yahoo"

// Schedule is the flaky account's weather: up for Up, then every
// connection dropped and new ones refused for Down.
type Schedule struct {
	Up, Down time.Duration
}

// DefaultSchedule shows an outage within a minute of starting.
var DefaultSchedule = Schedule{Up: 40 * time.Second, Down: 45 * time.Second}

// Demo is the running demo: its servers and the config that reaches them.
type Demo struct {
	servers map[string]*memimap.Server
	smtp    *smtptest.Server // takes every account's mail, delivers it to the demo's own
	cfg     *config.Config
	stop    chan struct{}
	wg      sync.WaitGroup
}

var attrs = map[string]imap.MailboxAttr{
	imapwire.SpecialArchive: imap.MailboxAttrArchive, imapwire.SpecialTrash: imap.MailboxAttrTrash, imapwire.SpecialSent: imap.MailboxAttrSent,
	imapwire.SpecialDrafts: imap.MailboxAttrDrafts, imapwire.SpecialJunk: imap.MailboxAttrJunk,
}

// Start seeds and starts the servers. Nothing listens beyond loopback and
// nothing is written to disk.
func Start(now time.Time, sched Schedule) (*Demo, error) {
	d := &Demo{servers: map[string]*memimap.Server{}, stop: make(chan struct{})}
	cfg := config.Defaults() // as a config file that sets nothing
	cfg.Path = "(demo)"
	// Quick probes so the flaky account's outage shows within seconds.
	cfg.Resilience.ProbeInterval = config.Duration{Duration: 5 * time.Second}
	cfg.Resilience.ProbeTimeout = config.Duration{Duration: 3 * time.Second}
	cfg.Resilience.IMAPCommandTimeout = config.Duration{Duration: 5 * time.Second}
	users, folders, seeded := Users(), Folders(), Mailboxes(now)
	logins := map[string]string{}
	for _, l := range users {
		logins[l[0]] = l[1]
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: logins, Deliver: d.deliver})
	if err != nil {
		return nil, fmt.Errorf("demo: the SMTP server: %w", err)
	}
	d.smtp = smtp
	for _, name := range Order {
		srv, err := memimap.Start(memimap.Options{})
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("demo %s: %w", name, err)
		}
		d.servers[name] = srv
		fs := map[string]imap.MailboxAttr{}
		for f, use := range folders[name] {
			if f != "INBOX" {
				fs[f] = attrs[use]
			}
		}
		login := users[name]
		if err := srv.AddUser(login[0], login[1], fs); err != nil {
			d.Close()
			return nil, fmt.Errorf("demo %s: %w", name, err)
		}
		for _, s := range seeded[name] {
			if _, err := srv.Append(login[0], s.Folder, s.Raw, s.Flags, s.Received); err != nil {
				d.Close()
				return nil, fmt.Errorf("demo %s: seed: %w", name, err)
			}
		}
		cfg.Accounts = append(cfg.Accounts, config.Account{
			Name: name, Kind: config.KindIMAP, Host: "127.0.0.1", Port: srv.Port(),
			Security: config.SecurityNone, Username: login[0],
			From: &mail.Address{Name: ownerName(name), Address: login[0]}, SaveSent: config.SaveSentAlways,
			SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: config.SecurityNone, Username: login[0]},
		})
	}
	d.cfg = cfg
	if sched.Up > 0 && sched.Down > 0 {
		d.wg.Add(1)
		go d.weather(d.servers[Flaky], sched)
	}
	return d, nil
}

// weather runs the flaky account's schedule until Close.
func (d *Demo) weather(srv *memimap.Server, s Schedule) {
	defer d.wg.Done()
	for {
		select {
		case <-d.stop:
			return
		case <-time.After(s.Up):
		}
		srv.Refuse()
		srv.DropAll()
		select {
		case <-d.stop:
			return
		case <-time.After(s.Down):
		}
		_ = srv.Accept()
	}
}

// Config is the demo's configuration, as if read from a file.
func (d *Demo) Config() *config.Config { return d.cfg }

// Password gives each demo account its (loopback-only, demo-only) password.
func (d *Demo) Password(a config.Account) func(context.Context) (string, error) {
	login, ok := Users()[a.Name]
	if !ok {
		return nil
	}
	return func(context.Context) (string, error) { return login[1], nil }
}

// Server returns an account's server (tests break it on purpose).
func (d *Demo) Server(name string) *memimap.Server { return d.servers[name] }

// Close stops the schedule and every server.
func (d *Demo) Close() {
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	d.wg.Wait()
	if d.smtp != nil {
		d.smtp.Close()
	}
	for _, s := range d.servers {
		s.Close()
	}
}

// deliver hands a sent message to each recipient that is one of the
// demo's own accounts (its INBOX); mail to anyone else goes nowhere, as
// the demo reaches nothing beyond this machine.
func (d *Demo) deliver(_ string, rcpt []string, data []byte) error {
	for _, r := range rcpt {
		for name, login := range Users() {
			if strings.EqualFold(r, login[0]) {
				if _, err := d.servers[name].Append(login[0], "INBOX", data, nil, time.Now()); err != nil {
					return fmt.Errorf("deliver to %s: %w", r, err)
				}
			}
		}
	}
	return nil
}

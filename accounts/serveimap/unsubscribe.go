package serveimap

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/unsubscribe"
	"unibox/conn"
)

// maxVerifyBytes is the largest message unsubscribe_info checks the DKIM
// signature of: the body hash needs the whole message, held in memory
// while it is checked (list mail is small; a bigger one is not verified).
const maxVerifyBytes = 32 << 20

// txtTimeout bounds one DKIM key lookup of the system resolver.
const txtTimeout = 5 * time.Second

// unsubscribeInfo reads one message whole (BODY.PEEK[]: never sets
// \Seen) and says what unsubscribing from it could do. The message is
// copied out of the IMAP command first: the DKIM key lookup is DNS, and
// the connection must not sit silent waiting for it.
func (s *Server) unsubscribeInfo(ctx context.Context, in imapwire.UnsubscribeInfoIn) (imapwire.UnsubscribeInfoOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.UnsubscribeInfoOut{}, "", err
	}
	if in.UID == 0 {
		return imapwire.UnsubscribeInfoOut{}, "", withClass(conn.ClassTool, fmt.Errorf("unsubscribe_info: uid is required"))
	}
	folder := folderOr(in.Folder)
	var raw []byte
	var uv uint32
	err = a.read(ctx, func(c *imapclient.Client) error {
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		uv = sel.UIDValidity
		raw, err = a.fetchRaw(ctx, c, folder, in.UID, uv)
		return err
	})
	if err != nil {
		return imapwire.UnsubscribeInfoOut{}, "", fmt.Errorf("unsubscribe_info %s/%s/%d: %w", in.Account, folder, in.UID, err)
	}
	info, err := unsubscribe.Inspect(bytes.NewReader(raw), s.lookupTXT(ctx))
	if err != nil {
		return imapwire.UnsubscribeInfoOut{}, "", withClass(conn.ClassTool, fmt.Errorf("unsubscribe_info %s/%s/%d: %w", in.Account, folder, in.UID, err))
	}
	if len(raw) > maxVerifyBytes {
		info.DKIM = unsubscribe.DKIM{Result: unsubscribe.DKIMFail, Reason: fmt.Sprintf("the message is over %d MiB: its signature was not checked", maxVerifyBytes>>20)}
	}
	out := imapwire.UnsubscribeInfoOut{UIDValidity: uv, Info: info}
	return out, fmt.Sprintf("%d unsubscribe options, one-click header %v, DKIM %s", len(info.Options), info.OneClickHeader, info.DKIM.Result), nil
}

// lookupTXT is the DKIM key lookup: the injected one, else the system
// resolver bounded by ctx and txtTimeout.
func (s *Server) lookupTXT(ctx context.Context) func(string) ([]string, error) {
	if s.opts.LookupTXT != nil {
		return s.opts.LookupTXT
	}
	return func(name string) ([]string, error) {
		cctx, cancel := context.WithTimeout(ctx, txtTimeout)
		defer cancel()
		return net.DefaultResolver.LookupTXT(cctx, name)
	}
}

// fetchRaw copies uid's whole message, at most maxVerifyBytes+1 of it.
func (a *account) fetchRaw(ctx context.Context, c *imapclient.Client, folder string, uid, uv uint32) ([]byte, error) {
	fo := &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}
	var raw []byte
	found := false
	err := a.cmd(ctx, c, func() error {
		cmd := c.Fetch(imap.UIDSetNum(imap.UID(uid)), fo)
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			var got imap.UID
			var body []byte
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch it := item.(type) {
				case imapclient.FetchItemDataUID:
					got = it.UID
				case imapclient.FetchItemDataBodySection:
					if it.Literal != nil {
						body, _ = io.ReadAll(io.LimitReader(it.Literal, maxVerifyBytes+1))
						_, _ = io.Copy(io.Discard, it.Literal)
					}
				}
			}
			if got == imap.UID(uid) {
				raw, found = body, true
			}
		}
		return cmd.Close()
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, withClass(conn.ClassTool, fmt.Errorf("no message with uid %d in %s (uidvalidity %d)", uid, folder, uv))
	}
	return raw, nil
}

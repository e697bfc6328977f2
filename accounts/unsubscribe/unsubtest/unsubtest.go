// Package unsubtest makes DKIM-signed list mail for tests: a key of its
// own, the TXT record that publishes it, and a lookup that answers with
// that record and nothing else (no test reaches a real DNS).
package unsubtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// Selector is the DKIM selector of every Key.
const Selector = "test"

// Key signs for Domain.
type Key struct {
	Domain string
	priv   ed25519.PrivateKey
}

// NewKey makes a fresh Ed25519 key for domain.
func NewKey(domain string) *Key {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return &Key{Domain: domain, priv: priv}
}

// Record is the TXT record publishing the key.
func (k *Key) Record() string {
	return "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(k.priv.Public().(ed25519.PublicKey))
}

// Name is where the record lives.
func (k *Key) Name() string { return Selector + "._domainkey." + k.Domain }

// Lookup answers for the given keys' names only.
func Lookup(keys ...*Key) func(string) ([]string, error) {
	return func(name string) ([]string, error) {
		for _, k := range keys {
			if strings.EqualFold(strings.TrimSuffix(name, "."), k.Name()) {
				return []string{k.Record()}, nil
			}
		}
		return nil, fmt.Errorf("no TXT record for %s", name)
	}
}

// Sign returns raw with a DKIM-Signature of the key over headers (nil:
// From, Subject, List-Unsubscribe, List-Unsubscribe-Post).
func (k *Key) Sign(raw []byte, headers ...string) []byte {
	if headers == nil {
		headers = []string{"From", "Subject", "List-Unsubscribe", "List-Unsubscribe-Post"}
	}
	var out bytes.Buffer
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: k.Domain, Selector: Selector, Signer: k.priv,
		HeaderKeys: headers, HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed})
	if err != nil {
		panic(err)
	}
	return out.Bytes()
}

// Mail is a list message from from, with List-Unsubscribe (the URIs,
// each in angle brackets) and, when oneClick, List-Unsubscribe-Post.
func Mail(from string, oneClick bool, uris ...string) []byte {
	var b strings.Builder
	b.WriteString("From: News <" + from + ">\r\nTo: me@example.org\r\nSubject: This week\r\n")
	b.WriteString("Date: Fri, 04 Dec 2026 10:00:00 +0000\r\nMessage-ID: <n1@list.example>\r\n")
	if len(uris) > 0 {
		b.WriteString("List-Unsubscribe: <" + strings.Join(uris, ">, <") + ">\r\n")
	}
	if oneClick {
		b.WriteString("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n")
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello from the list.\r\n")
	return []byte(b.String())
}

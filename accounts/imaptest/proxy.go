// Package imaptest runs real IMAP servers for tests: go-imap's in-process
// server and a throwaway Dovecot (.ci/dovecot.sh), both behind a toxiproxy
// proxy, so the same table of tests can hang up on, silence or refuse the
// client on either. Test code only.
package imaptest

import (
	"context"
	"strings"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
	"go.uber.org/goleak"
)

// Proxy is an in-process toxiproxy between the client and a mail server.
type Proxy struct {
	p *toxiproxy.Proxy
}

// NewProxy listens on 127.0.0.1 and forwards to upstream.
func NewProxy(t testing.TB, upstream string) *Proxy {
	t.Helper()
	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(api, "imap", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("toxiproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	return &Proxy{p: p}
}

// Addr is where clients connect.
func (p *Proxy) Addr() string { return p.p.Listen }

// Drop cuts every connection through the proxy, as a server hanging up
// would; new connections are accepted again at once.
func (p *Proxy) Drop() {
	p.p.Stop()
	if err := p.p.Start(); err != nil {
		panic("toxiproxy restart: " + err.Error())
	}
}

// Down refuses connections (and cuts the open ones) until the returned
// function is called.
func (p *Proxy) Down() (up func()) {
	p.p.Stop()
	return func() {
		if err := p.p.Start(); err != nil {
			panic("toxiproxy restart: " + err.Error())
		}
	}
}

// Silence stops all data in both directions without closing anything: a
// server that stops answering. The returned function lets data flow again.
func (p *Proxy) Silence() (restore func()) {
	for _, s := range []string{"upstream", "downstream"} {
		body := `{"name":"silence_` + s + `","type":"timeout","stream":"` + s + `","attributes":{"timeout":0}}`
		if _, err := p.p.Toxics.AddToxicJson(strings.NewReader(body)); err != nil {
			panic("toxiproxy: " + err.Error())
		}
	}
	return func() {
		for _, s := range []string{"upstream", "downstream"} {
			_ = p.p.Toxics.RemoveToxic(context.Background(), "silence_"+s)
		}
	}
}

// Toxic adds a toxiproxy toxic ("latency", "reset_peer", "slow_close",
// "bandwidth", "limit_data", ...) on stream ("upstream" or "downstream")
// with its attributes as JSON; the returned function removes it.
func (p *Proxy) Toxic(t testing.TB, kind, stream, attrs string) (remove func()) {
	t.Helper()
	name := kind + "_" + stream
	body := `{"name":"` + name + `","type":"` + kind + `","stream":"` + stream + `","attributes":` + attrs + `}`
	if _, err := p.p.Toxics.AddToxicJson(strings.NewReader(body)); err != nil {
		t.Fatalf("toxiproxy %s: %v", kind, err)
	}
	return func() { _ = p.p.Toxics.RemoveToxic(context.Background(), name) }
}

// ToxiproxyLeaks are goleak options for toxiproxy v2.5.0's own goroutines:
// stopping a proxy while toxics change under live connections can strand
// a link's pipes. They belong to the test tool, not to unibox.
func ToxiproxyLeaks() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreAnyFunction("github.com/Shopify/toxiproxy/v2/toxics.(*ToxicStub).Run"),
		goleak.IgnoreAnyFunction("github.com/Shopify/toxiproxy/v2.(*ToxicLink).read"),
		goleak.IgnoreAnyFunction("github.com/Shopify/toxiproxy/v2.(*ToxicLink).write"),
		goleak.IgnoreAnyFunction("github.com/Shopify/toxiproxy/v2.(*ToxicLink).Start.func1"),
	}
}

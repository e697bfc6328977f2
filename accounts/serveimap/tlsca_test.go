package serveimap

import (
	"strings"
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// A self-hosted server with its own CA: refused as class config, with a
// message that names the host and tls_ca_file, until the account trusts
// that CA (with another CA's file, the message names that file); other
// accounts of the same child keep the system roots.
func TestTLSCAFile(t *testing.T) {
	ca := imaptest.NewCA(t)
	b := imaptest.NewMem(t, memimap.Options{TLS: ca.Server})
	user, pass := b.NewUser(t)
	cs := session(t, Options{})
	in := imapwire.AddAccountIn{Account: "self", Host: "127.0.0.1", Port: b.Port(), Security: "tls", Username: user, Password: pass}

	res := call(t, cs, "add_account", in, nil)
	mustClass(t, "add_account without the CA", res, conn.ClassConfig)
	if text := conn.ResultText(res); !strings.Contains(text, "127.0.0.1") || !strings.Contains(text, "tls_ca_file") {
		t.Fatalf("the refusal does not name the host and tls_ca_file: %s", text)
	}

	// With tls_ca_file set to another CA's file, the hint names that file
	// and says the certificate does not chain to it, not "set tls_ca_file".
	wrong := in
	wrong.TLSCAPEM, wrong.TLSCAFile = imaptest.NewCA(t).PEM, "/home/sam/.config/unibox/other-ca.pem"
	res = call(t, cs, "add_account", wrong, nil)
	mustClass(t, "add_account with another CA", res, conn.ClassConfig)
	if text := conn.ResultText(res); !strings.Contains(text, "does not chain to the CA of tls_ca_file /home/sam/.config/unibox/other-ca.pem") || strings.Contains(text, "set tls_ca_file") {
		t.Fatalf("the refusal with tls_ca_file set: %s", text)
	}

	in.TLSCAPEM = ca.PEM
	mustOK(t, "add_account with the CA", call(t, cs, "add_account", in, nil))
	mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "self"}, nil))

	other := in
	other.Account, other.TLSCAPEM = "other", ""
	mustClass(t, "another account without the CA", call(t, cs, "add_account", other, nil), conn.ClassConfig)

	bad := in
	bad.Account, bad.TLSCAPEM = "bad", "-----BEGIN NOTHING-----\n"
	mustClass(t, "add_account with PEM holding no certificate", call(t, cs, "add_account", bad, nil), conn.ClassConfig)
}

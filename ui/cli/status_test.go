package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// A server whose certificate the account does not trust: the status
// table's ERROR column cut the error before its fix ("set tls_ca_file
// …"); now the whole error follows the table on a line of its own
// (issue 37, item 16). A real TLS server and a real serve-imap child.
func TestStatusPrintsACutErrorWhole(t *testing.T) {
	ca := imaptest.NewCA(t)
	srv, err := memimap.Start(memimap.Options{TLS: ca.Server})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", nil); err != nil {
		t.Fatal(err)
	}
	t.Setenv("UNIBOX_TEST_PW", "pw")
	cfg := strings.Replace(facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")), `security = "none"`, `security = "tls"`, 1)
	path := facetest.Write(t, facetest.Resilience("1m")+cfg)
	var stdout, stderr bytes.Buffer
	cli.Status([]string{"--config", path, "--timeout", "10s"}, &stdout, &stderr)
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "Work ") || !strings.Contains(lines[1], "config") {
		t.Fatalf("want the table (head, Work's row) and one line after it:\n%s\nstderr: %s", stdout.String(), stderr.String())
	}
	if last := lines[2]; !strings.HasPrefix(last, "Work: ") || !strings.Contains(last, "the certificate of 127.0.0.1 is not trusted (") ||
		!strings.HasSuffix(last, "; if the server uses its own CA, set tls_ca_file to its PEM file") {
		t.Fatalf("the error's own line is %q", last)
	}
}

package facetest

import (
	"os"
	"slices"
	"testing"
	"time"

	"unibox/accounts/config"
)

// The configs the tests of every face share are configs unibox accepts,
// private to the user, with the accounts and dials their doc comments
// promise: a helper that wrote a config the loader refuses would fail
// every face's test for a reason none of them names.
func TestConfigsLoad(t *testing.T) {
	for _, tt := range []struct {
		name     string
		write    func(t *testing.T) string
		accounts []string
		backoff  time.Duration
	}{
		{"OneAccount", func(t *testing.T) string { return OneAccount(t, Sam(t, "pw", nil)) }, []string{"Work"}, time.Minute},
		{"ThreeAccounts", func(t *testing.T) string { return ThreeAccounts(t) }, []string{"Work", "Down", "Hung"}, time.Minute},
		{"Hostile", func(t *testing.T) string { return Hostile(t) }, []string{"Hostile"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.write(t)
			st, err := os.Stat(path)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("config file %s: %v, mode %v; want 0600", path, err, st.Mode().Perm())
			}
			cfg, err := config.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, a := range cfg.Accounts {
				names = append(names, a.Name)
			}
			if !slices.Equal(names, tt.accounts) {
				t.Fatalf("accounts %v, want %v", names, tt.accounts)
			}
			if tt.backoff > 0 && (cfg.Resilience.BackoffBase.Duration != tt.backoff || cfg.Resilience.BackoffCap.Duration != tt.backoff) {
				t.Fatalf("backoff %+v, want %s", cfg.Resilience, tt.backoff)
			}
		})
	}
}

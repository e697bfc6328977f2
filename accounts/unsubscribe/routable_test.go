package unsubscribe

import (
	"errors"
	"net/netip"
	"testing"
)

// registryRows is one address from each row of the IANA special-purpose
// registries (and the address-space rows the table adds), with what the
// registry's "Globally Reachable" column makes of it: true only where it
// says True (N/A and False are refused; the IPv4-in-IPv6 forms follow
// the IPv4 address they carry). Written from the registries, not from
// the table under test.
var registryRows = []struct {
	addr string
	ok   bool
}{
	{"1.1.1.1", true}, {"224.0.0.251", false}, {"239.255.255.250", false},
	{"0.1.2.3", false}, {"0.0.0.0", false}, {"10.20.30.40", false}, {"100.127.255.254", false},
	{"127.0.0.53", false}, {"169.254.169.254", false}, {"172.31.255.255", false},
	{"192.0.0.255", false}, {"192.0.0.1", false}, {"192.0.0.8", false}, {"192.0.0.9", true}, {"192.0.0.10", true},
	{"192.0.0.170", false}, {"192.0.0.171", false}, {"192.0.2.1", false}, {"192.31.196.1", true}, {"192.52.193.1", true},
	{"192.88.99.1", false}, {"192.88.99.2", false}, {"192.168.1.1", false}, {"192.175.48.6", true},
	{"198.18.0.1", false}, {"198.19.255.255", false}, {"198.51.100.7", false}, {"203.0.113.9", false},
	{"240.0.0.1", false}, {"255.255.255.254", false}, {"255.255.255.255", false},

	{"2606:4700::1111", true}, {"2001:4860:4860::8888", true}, {"fec0::1", false}, {"ff02::1", false}, {"4000::1", false},
	{"::1", false}, {"::", false}, {"::ffff:8.8.8.8", true}, {"::ffff:127.0.0.1", false},
	{"64:ff9b::8.8.8.8", true}, {"64:ff9b::10.0.0.1", false}, {"64:ff9b:1::8.8.8.8", false},
	{"100::1", false}, {"100:0:0:1::1", false}, {"2001:1ff::1", false}, {"2001::7f00:1", false}, {"2001:0:4136:e378::1", false},
	{"2001:1::1", true}, {"2001:1::2", true}, {"2001:1::3", true}, {"2001:1::4", false}, {"2001:2::1", false},
	{"2001:3::1", true}, {"2001:4:112::1", true}, {"2001:10::1", false}, {"2001:20::1", true}, {"2001:30::1", true},
	{"2001:db8::1", false}, {"2002:808:808::1", true}, {"2002:a00:1::1", false}, {"2002:7f00:1::1", false},
	{"2620:4f:8000::1", true}, {"3fff::1", false}, {"5f00::1", false}, {"fd00::1", false}, {"fc00::1", false}, {"fe80::1", false},
	{"::ffff:0:7f00:1", false}, {"::8.8.8.8", false}, {"::ffff:0:8.8.8.8", false},
}

// Every row decides as the registry says, a more specific row over the
// block around it (192.0.0.9 in 192.0.0.0/24, 2001:1::1 in 2001::/23).
func TestCheckRoutableRegistryRows(t *testing.T) {
	for _, tt := range registryRows {
		t.Run(tt.addr, func(t *testing.T) {
			err := CheckRoutable(netip.MustParseAddr(tt.addr))
			if tt.ok && err != nil {
				t.Fatalf("%s refused: %v", tt.addr, err)
			}
			if !tt.ok && !errors.Is(err, ErrForbiddenAddress) {
				t.Fatalf("%s: %v, want ErrForbiddenAddress", tt.addr, err)
			}
		})
	}
	t.Run("a zone", func(t *testing.T) {
		if err := CheckRoutable(netip.MustParseAddr("2606:4700::1111%eth0")); !errors.Is(err, ErrForbiddenAddress) {
			t.Fatalf("zoned: %v", err)
		}
	})
}

// Every row of the table is tested: the list above holds an address
// that the row, and no more specific one, decides.
func TestRoutableTableCovered(t *testing.T) {
	for _, s := range spaces {
		found := false
		for _, tt := range registryRows {
			if a := netip.MustParseAddr(tt.addr); rowOf(a).prefix == s.prefix {
				found = true
			}
		}
		if !found {
			t.Errorf("no test address decided by %s (%s)", s.prefix, s.name)
		}
	}
}

// The refusal names the row, so a reader learns which rule it was.
func TestCheckRoutableNamesTheRow(t *testing.T) {
	err := CheckRoutable(netip.MustParseAddr("198.18.0.1"))
	if err == nil || err.Error() != "address 198.18.0.1: Benchmarking (RFC 2544), not globally reachable: "+ErrForbiddenAddress.Error() {
		t.Fatalf("%v", err)
	}
}

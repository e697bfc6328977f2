package unsubscribe

import (
	"fmt"
	"net/netip"
)

// reach is a row's "Globally Reachable" column, or what unibox does with
// a row whose column does not settle it.
type reach int

const (
	global   reach = iota // True: allowed
	local                 // False: refused
	na                    // N/A in the registry (Teredo, deprecated blocks): refused
	embedsV4              // an IPv6 form of an IPv4 address: judged by that address
)

// space is a row of the one table the one-click POST's addresses are
// judged by.
type space struct {
	prefix netip.Prefix
	name   string // the registry's name, and its RFC
	reach  reach
}

// spaces is the address table, longest prefix first matching. Its rows
// are the IANA special-purpose address registries, with their "Globally
// Reachable" column:
//
//	https://www.iana.org/assignments/iana-ipv4-special-registry (as of its 2024 rows)
//	https://www.iana.org/assignments/iana-ipv6-special-registry (as updated 2025-10-09)
//
// and, because the special-purpose registries list only blocks carved
// out of unicast space, the two rows the address-space registries add:
// 224.0.0.0/4 is multicast (iana.org/assignments/ipv4-address-space), and
// in IPv6 only 2000::/3 is Global Unicast (iana.org/assignments/
// ipv6-address-space): everything else there (fec0::/10 site-local, ::/8
// with the IPv4-compatible and IPv4-translated forms, ff00::/8 multicast,
// 5f00::/16) is refused by the ::/0 row. A more specific row wins over
// the block around it, as the registries mean it: 192.0.0.9/32 (PCP
// anycast) is reachable inside 192.0.0.0/24, and 2001:1::1/128,
// 2001:3::/32 or 2001:20::/28 inside 2001::/23. N/A rows are refused:
// Teredo (2001::/32) reaches a host behind someone's NAT, and the
// registry gives no answer to go by.
//
// Checked when the table was written (2026-12); a row the registry adds
// later is refused if it falls in a False block, and allowed only in
// plain unicast space, until it is added here.
var spaces = []space{
	// IPv4: everything is unicast but multicast and the rows below.
	{netip.MustParsePrefix("0.0.0.0/0"), "IPv4 unicast (IPv4 Address Space registry)", global},
	{netip.MustParsePrefix("224.0.0.0/4"), "Multicast (IPv4 Address Space registry, RFC 5771)", local},
	{netip.MustParsePrefix("0.0.0.0/8"), `"This network" (RFC 791)`, local},
	{netip.MustParsePrefix("0.0.0.0/32"), `"This host on this network" (RFC 1122)`, local},
	{netip.MustParsePrefix("10.0.0.0/8"), "Private-Use (RFC 1918)", local},
	{netip.MustParsePrefix("100.64.0.0/10"), "Shared Address Space (RFC 6598)", local},
	{netip.MustParsePrefix("127.0.0.0/8"), "Loopback (RFC 1122)", local},
	{netip.MustParsePrefix("169.254.0.0/16"), "Link Local (RFC 3927)", local},
	{netip.MustParsePrefix("172.16.0.0/12"), "Private-Use (RFC 1918)", local},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF Protocol Assignments (RFC 6890)", local},
	{netip.MustParsePrefix("192.0.0.0/29"), "IPv4 Service Continuity Prefix (RFC 7335)", local},
	{netip.MustParsePrefix("192.0.0.8/32"), "IPv4 dummy address (RFC 7600)", local},
	{netip.MustParsePrefix("192.0.0.9/32"), "Port Control Protocol Anycast (RFC 7723)", global},
	{netip.MustParsePrefix("192.0.0.10/32"), "Traversal Using Relays around NAT Anycast (RFC 8155)", global},
	{netip.MustParsePrefix("192.0.0.170/32"), "NAT64/DNS64 Discovery (RFC 7050)", local},
	{netip.MustParsePrefix("192.0.0.171/32"), "NAT64/DNS64 Discovery (RFC 7050)", local},
	{netip.MustParsePrefix("192.0.2.0/24"), "Documentation (TEST-NET-1) (RFC 5737)", local},
	{netip.MustParsePrefix("192.31.196.0/24"), "AS112-v4 (RFC 7535)", global},
	{netip.MustParsePrefix("192.52.193.0/24"), "AMT (RFC 7450)", global},
	{netip.MustParsePrefix("192.88.99.0/24"), "Deprecated (6to4 Relay Anycast) (RFC 7526)", na},
	{netip.MustParsePrefix("192.88.99.2/32"), "6a44-relay anycast address (RFC 6751)", local},
	{netip.MustParsePrefix("192.168.0.0/16"), "Private-Use (RFC 1918)", local},
	{netip.MustParsePrefix("192.175.48.0/24"), "Direct Delegation AS112 Service (RFC 7534)", global},
	{netip.MustParsePrefix("198.18.0.0/15"), "Benchmarking (RFC 2544)", local},
	{netip.MustParsePrefix("198.51.100.0/24"), "Documentation (TEST-NET-2) (RFC 5737)", local},
	{netip.MustParsePrefix("203.0.113.0/24"), "Documentation (TEST-NET-3) (RFC 5737)", local},
	{netip.MustParsePrefix("240.0.0.0/4"), "Reserved (RFC 1112)", local},
	{netip.MustParsePrefix("255.255.255.255/32"), "Limited Broadcast (RFC 8190, RFC 919)", local},

	// IPv6: only Global Unicast, less the rows below.
	{netip.MustParsePrefix("::/0"), "not Global Unicast (IPv6 Address Space registry)", local},
	{netip.MustParsePrefix("2000::/3"), "Global Unicast (IPv6 Address Space registry, RFC 4291)", global},
	{netip.MustParsePrefix("::1/128"), "Loopback Address (RFC 4291)", local},
	{netip.MustParsePrefix("::/128"), "Unspecified Address (RFC 4291)", local},
	// The registry says False: no datagram carries it. Go writes every
	// IPv4 address this way inside, and the dialer connects to the IPv4
	// address it maps, so that address is judged.
	{netip.MustParsePrefix("::ffff:0:0/96"), "IPv4-mapped Address (RFC 4291)", embedsV4},
	// True in the registry: a NAT64 gateway carries it to the IPv4
	// address in its last 32 bits (RFC 6052), which is judged.
	{netip.MustParsePrefix("64:ff9b::/96"), "IPv4-IPv6 Translat. (RFC 6052)", embedsV4},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "IPv4-IPv6 Translat. (RFC 8215)", local},
	{netip.MustParsePrefix("100::/64"), "Discard-Only Address Block (RFC 6666)", local},
	{netip.MustParsePrefix("100:0:0:1::/64"), "Dummy IPv6 Prefix (RFC 9780)", local},
	{netip.MustParsePrefix("2001::/23"), "IETF Protocol Assignments (RFC 2928)", local},
	{netip.MustParsePrefix("2001::/32"), "TEREDO (RFC 4380, RFC 8190)", na},
	{netip.MustParsePrefix("2001:1::1/128"), "Port Control Protocol Anycast (RFC 7723)", global},
	{netip.MustParsePrefix("2001:1::2/128"), "Traversal Using Relays around NAT Anycast (RFC 8155)", global},
	{netip.MustParsePrefix("2001:1::3/128"), "DNS-SD Service Registration Protocol Anycast (RFC 9665)", global},
	{netip.MustParsePrefix("2001:2::/48"), "Benchmarking (RFC 5180)", local},
	{netip.MustParsePrefix("2001:3::/32"), "AMT (RFC 7450)", global},
	{netip.MustParsePrefix("2001:4:112::/48"), "AS112-v6 (RFC 7535)", global},
	{netip.MustParsePrefix("2001:10::/28"), "Deprecated (previously ORCHID) (RFC 4843)", local},
	{netip.MustParsePrefix("2001:20::/28"), "ORCHIDv2 (RFC 7343)", global},
	{netip.MustParsePrefix("2001:30::/28"), "Drone Remote ID Protocol Entity Tags (DETs) Prefix (RFC 9374)", global},
	{netip.MustParsePrefix("2001:db8::/32"), "Documentation (RFC 3849)", local},
	// N/A in the registry; a 6to4 relay carries it to the IPv4 address
	// in bits 16-47 (RFC 3056), which is judged.
	{netip.MustParsePrefix("2002::/16"), "6to4 (RFC 3056)", embedsV4},
	{netip.MustParsePrefix("2620:4f:8000::/48"), "Direct Delegation AS112 Service (RFC 7534)", global},
	{netip.MustParsePrefix("3fff::/20"), "Documentation (RFC 9637)", local},
	{netip.MustParsePrefix("5f00::/16"), "Segment Routing (SRv6) SIDs (RFC 9602)", local},
	{netip.MustParsePrefix("fc00::/7"), "Unique-Local (RFC 4193, RFC 8190)", local},
	{netip.MustParsePrefix("fe80::/10"), "Link-Local Unicast (RFC 4291)", local},
}

// rowOf is the most specific row of spaces that holds ip.
func rowOf(ip netip.Addr) space {
	best := space{reach: na, name: "in no row"}
	bits := -1
	for _, s := range spaces {
		if s.prefix.Addr().Is4() == ip.Is4() && s.prefix.Contains(ip) && s.prefix.Bits() > bits {
			best, bits = s, s.prefix.Bits()
		}
	}
	return best
}

// CheckRoutable says why ip may not receive the one-click POST (nil: it
// may): allowed is only what the table calls globally reachable. An
// address with a zone is link-scoped, and refused.
func CheckRoutable(ip netip.Addr) error {
	if !ip.IsValid() || ip.Zone() != "" {
		return fmt.Errorf("address %s: scoped or invalid: %w", ip, ErrForbiddenAddress)
	}
	for range 2 { // an IPv4 address inside an IPv6 one is judged once more
		s := rowOf(ip)
		switch s.reach {
		case global:
			return nil
		case embedsV4:
			ip = embeddedV4(ip, s.prefix)
			continue
		case na:
			return fmt.Errorf("address %s: %s, globally reachable N/A in the IANA registry: %w", ip, s.name, ErrForbiddenAddress)
		}
		return fmt.Errorf("address %s: %s, not globally reachable: %w", ip, s.name, ErrForbiddenAddress)
	}
	return fmt.Errorf("address %s: %w", ip, ErrForbiddenAddress) // not reached: the IPv4 rows embed nothing
}

// embeddedV4 is the IPv4 address in ip, an address of the embedding
// prefix p: the last 32 bits (mapped, NAT64), or bits 16-47 (6to4).
func embeddedV4(ip netip.Addr, p netip.Prefix) netip.Addr {
	b := ip.As16()
	if p.Bits() == 16 { // 2002::/16
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
}

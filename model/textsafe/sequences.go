package textsafe

// The skip functions each take the index just after a sequence introducer and
// return the index just after the sequence, so that the whole sequence,
// parameters and payload included, disappears. A sequence cut short by the
// end of the string swallows the rest of it: there is no way to know where
// the sender meant it to end, and showing its payload is what we must avoid.

// skipEscape handles what follows a 7-bit ESC.
func skipEscape(s string, j int) int {
	if j >= len(s) {
		return j
	}
	switch s[j] {
	case '[':
		return skipCSI(s, j+1)
	case ']':
		return skipString(s, j+1, true)
	case 'P', 'X', '^', '_': // DCS, SOS, PM, APC
		return skipString(s, j+1, false)
	}
	// Any other escape: intermediate bytes 0x20-0x2F, then one final byte
	// 0x30-0x7E ("ESC c", "ESC 7", "ESC ( B", "ESC # 8").
	k := j
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
		return k + 1
	}
	// Malformed: drop the ESC and its intermediates and let the offending
	// byte be read as ordinary input (it may itself be an ESC).
	return k
}

// skipCSI handles a control sequence: parameter bytes 0x30-0x3F and
// intermediate bytes 0x20-0x2F, ended by a final byte 0x40-0x7E.
func skipCSI(s string, j int) int {
	for k := j; k < len(s); k++ {
		c := s[k]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return k + 1
		case c >= 0x20 && c <= 0x3f, c == 0x7f:
			// Parameters and intermediates; DEL is ignored by terminals.
		case c == can || c == sub:
			return k + 1
		case c == esc:
			return k // an ESC aborts this sequence and starts another
		case c < 0x20:
			// Terminals execute C0 controls inside a CSI and carry on; we
			// drop them along with the sequence.
		default:
			// A non-ASCII byte cannot be part of a CSI: end it here and read
			// the byte as ordinary input.
			return k
		}
	}
	return len(s)
}

// skipString handles the string controls OSC, DCS, SOS, PM and APC, which
// run until a String Terminator: ESC \ or the 8-bit ST (U+009C). An OSC is
// also ended by BEL, as xterm allows (that is how OSC 0 titles, OSC 8 links
// and OSC 52 clipboard writes are usually sent).
func skipString(s string, j int, belEnds bool) int {
	for k := j; k < len(s); k++ {
		switch c := s[k]; {
		case c == bel && belEnds:
			return k + 1
		case c == can || c == sub:
			return k + 1
		case c == esc:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
			return k // a different escape aborts the string and starts anew
		case c == 0xc2 && k+1 < len(s) && s[k+1] == 0x9c: // U+009C ST
			return k + 2
		}
	}
	return len(s)
}

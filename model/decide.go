package model

// Observation is what reading the server showed about one message whose
// write had an unknown outcome.
type Observation struct {
	InSource bool    // the uid is still in the folder it was in
	Source   Message // its current flags, when InSource
	InTarget bool    // its Message-ID is in the destination folder (moves)
	Target   MessageID
	// TargetChecked: the destination could be searched for the message.
	// Without it, "not in the target" is not known, so nothing is provable.
	TargetChecked bool
}

// Decision is what to do about an unknown outcome.
type Decision int

const (
	DecideDone    Decision = iota // the change is on the server: report it done
	DecideGone                    // the message is gone: nothing to do
	DecideResend                  // provably not done: send it once more
	DecideDoneDup                 // copied but the original remains: done, never resent (it would double)
	DecideUnknown                 // reading cannot tell: report unknown, never resend
)

// Decide settles an unknown outcome from what reading showed. Only what is
// provably not done is sent again: a move whose message is still in its
// folder and not in the destination, a flag change whose flag is not set.
func Decide(op Op, obs Observation) Decision {
	if op.Removes() {
		switch {
		case !obs.InSource:
			return DecideDone // MOVE is atomic: gone from the source means moved
		case obs.InTarget:
			return DecideDoneDup
		case !obs.TargetChecked:
			// Still in the source, but a non-atomic move (COPY first)
			// may have left a copy we cannot look for: resending could
			// double it.
			return DecideUnknown
		}
		return DecideResend
	}
	if !obs.InSource {
		return DecideGone
	}
	have := obs.Source.Seen
	if op.Action == ActSetFlagged {
		have = obs.Source.Flagged
	}
	if have == op.Value {
		return DecideDone
	}
	return DecideResend
}

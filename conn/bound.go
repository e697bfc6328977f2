package conn

import "time"

// MinTransferRate is the slowest link a call's payload is given time for:
// 128 KiB a second, a poor mobile uplink. A 25 MiB forward on a 1 MB/s
// uplink took 26 s and was cut at a fixed 15 s with its outcome unknown;
// at this rate 50 MiB (the largest APPEND) gets 400 s on top of the base
// bound. serve-imap adds the same TransferTime to its IMAP command
// deadline, and the adapter to its call bound (Request.Payload): one rule,
// so the parent never gives up on a child that is still within its own.
const MinTransferRate = 128 << 10 // bytes a second

// TransferTime is how long n bytes take at MinTransferRate: the time a
// call that moves them gets on top of its base bound.
func TransferTime(n int64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Second / MinTransferRate
}

// callBound is the bound of one call carrying payload bytes: the
// CallTimeout floor plus the payload's TransferTime.
func (a *Adapter) callBound(payload int64) time.Duration {
	return a.dials.CallTimeout + TransferTime(payload)
}

package serveimap

import (
	"context"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// A sync of a big folder asks, page after page, which uids a range holds
// (and a listing of older or unread mail, or a search, which match).
// Answered as a list, that is up to the whole folder's uids each time
// (700 KB per page of a 100,000-message first sync, and as much memory to
// hold them). ESEARCH (RFC 4731) answers with ranges instead, and ranges
// are all the sync keeps: a page is taken from the top of them, and the
// expunge check hands them to the client as they are.

// uidsIn is the uids of set the folder holds (see uidsMatching).
func uidsIn(ctx context.Context, a *account, c *imapclient.Client, set imap.UIDSet) ([][2]uint32, error) {
	return uidsMatching(ctx, a, c, &imap.SearchCriteria{UID: []imap.UIDSet{set}})
}

// uidsMatching is the uids of the messages crit matches, as sorted,
// merged inclusive ranges: by ESEARCH RETURN (ALL) where the server has
// it, else packed from the plain SEARCH list.
func uidsMatching(ctx context.Context, a *account, c *imapclient.Client, crit *imap.SearchCriteria) ([][2]uint32, error) {
	var opts *imap.SearchOptions
	if c.Caps().Has(imap.CapESearch) {
		opts = &imap.SearchOptions{ReturnAll: true}
	}
	var data *imap.SearchData
	if err := a.cmd(ctx, c, func() (err error) {
		data, err = c.UIDSearch(crit, opts).Wait()
		return err
	}); err != nil {
		return nil, err
	}
	if all, ok := data.All.(imap.UIDSet); ok && opts != nil {
		var rs [][2]uint32
		for _, r := range all {
			rs = append(rs, [2]uint32{uint32(min(r.Start, r.Stop)), uint32(max(r.Start, r.Stop))})
		}
		return merge(rs), nil
	}
	var rs [][2]uint32
	for _, u := range data.AllUIDs() {
		rs = append(rs, [2]uint32{uint32(u), uint32(u)})
	}
	return merge(rs), nil
}

// merge sorts ranges and joins the ones that touch or overlap.
func merge(rs [][2]uint32) [][2]uint32 {
	slices.SortFunc(rs, func(x, y [2]uint32) int { return int(int64(x[0]) - int64(y[0])) })
	var out [][2]uint32
	for _, r := range rs {
		if n := len(out); n > 0 && uint64(r[0]) <= uint64(out[n-1][1])+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// clip drops the uids below from.
func clip(rs [][2]uint32, from uint32) [][2]uint32 {
	var out [][2]uint32
	for _, r := range rs {
		if r[1] < from {
			continue
		}
		out = append(out, [2]uint32{max(r[0], from), r[1]})
	}
	return out
}

// count is how many uids the ranges hold.
func count(rs [][2]uint32) uint32 {
	var n uint32
	for _, r := range rs {
		n += r[1] - r[0] + 1
	}
	return n
}

// top is the highest limit uids of the ranges, as a set to fetch.
func top(rs [][2]uint32, limit int) imap.UIDSet {
	var set imap.UIDSet
	left := uint32(limit)
	for i := len(rs) - 1; i >= 0 && left > 0; i-- {
		lo := rs[i][0]
		if rs[i][1]-lo+1 > left {
			lo = rs[i][1] - left + 1
		}
		set = append(set, imap.UIDRange{Start: imap.UID(lo), Stop: imap.UID(rs[i][1])})
		left -= rs[i][1] - lo + 1
	}
	slices.Reverse(set)
	return set
}

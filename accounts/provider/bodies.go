package provider

import (
	"context"

	"unibox/conn"
	"unibox/model"
)

// BodyFetcher is a provider that can fetch the text of several messages
// at once for the store's full-text search, in the background (IMAP's
// fetch_bodies: only the text parts are read, within a byte budget). A
// provider without it (a third-party MCP server) has its bodies stored
// only as they are opened.
type BodyFetcher interface {
	// FetchBodies reads the text of uids of folder, in that order, until
	// the bytes read from the server would pass maxBytes (the first is
	// read whatever its size). The call yields to the person's own
	// (conn.Request.Background).
	FetchBodies(ctx context.Context, a *conn.Adapter, folder string, uidValidity uint32, uids []uint32, maxBytes int64) (FetchedBodies, error)
}

// FetchedBodies is one FetchBodies answer. The first Answered uids were
// dealt with (each in Bodies or Gone); nothing was when UIDValidity is
// not the one asked about.
type FetchedBodies struct {
	UIDValidity uint32
	Bodies      []model.Body // ID, Text, FromHTML, Problems
	Gone        []uint32
	Answered    int
	Bytes       int64 // read from the mail server
}

// Package thread groups messages into conversations across folders and
// accounts, and orders one conversation for display. It is pure: no store,
// no I/O. The store feeds it every message once at launch (Threader.Add in
// any order) and each arriving message after that, and persists what Add
// reports.
//
// # What a thread is
//
// The nodes of a graph are message ids; every message joins its own
// Message-ID to its In-Reply-To and to each id of its References (JWZ's
// inputs). A thread is a connected component of that graph. Union-find
// keeps the components, so a new message joins or merges threads in
// near-constant time, the same set of messages gives the same threads in
// whatever order it arrives (JWZ's first-come parent choice does not), and
// cycles, self-references and duplicate ids cannot hurt: nothing recurses.
//
// Two copies of one Message-ID (INBOX and Sent, or two accounts) are one
// node, so both rows are in one thread. A message without a usable
// Message-ID gets a synthetic node from its Key ("key " + Key.String();
// real ids hold no space, so it can equal none), which no other message
// can name: it joins a thread only through its own In-Reply-To and
// References. Alone, it is its thread's root, so that thread's id changes
// if its folder's UIDVALIDITY does.
//
// # Links agree on the subject
//
// In-Reply-To and References join two messages only when their subjects
// agree, as Gmail does (issue 35: a spam whose References named Mom's
// message joined her thread, and `d` on it trashed hers): the Re:/Fwd:/
// AW:/SV: prefixes (model/subject) and leading list tags ("[family]")
// stripped, white space and case folded; an empty subject never agrees,
// so a message without one links to nothing but its own copies. The
// graph's nodes are therefore keyed by id and subject: a message's refs
// are the nodes of those ids qualified by its subject, and a message's own
// qualified node joins its own id. Two copies of one Message-ID are still
// one node, whatever their subjects.
//
// A thread whose root id another thread is rooted at too (Mom's message,
// and the spam thread naming it) takes ID(root id, NUL, subject), so no
// two threads ever share a thread_id; a thread whose root id is its alone
// keeps ID(root id), the id it had before the rule. When a second thread
// comes to share a root id, the first is renamed and Add reports the
// rename as an alias, so its old id still finds it (shared.go).
//
// # Ids as compared
//
// Ids are compared whole and case-sensitively, as most clients do, after
// model.CleanMsgID: surrounding space and one pair of <> stripped; an id
// that is empty, longer than model.MaxMsgIDBytes (500) or holds a space,
// a control, a non-ASCII byte or an inner < or > is skipped, never an
// error. Of References only the first valid id and the last MaxTail valid
// ids are read (RFC 5322 §3.6.4 allows trimming the middle): the root and
// the nearest ancestors, so a 5,000-id header costs a bounded amount.
//
// # thread_id
//
// A thread's id is ID(root): the first 16 characters of the lowercase,
// unpadded base32 of the SHA-256 of the root's id (80 bits). The root is a
// pure function of the thread's messages, so the id is the same in every
// process and after a rebuild from scratch:
//
//   - each message has a head: its first valid References id, else its
//     In-Reply-To, else its own id (the conversation it says it started
//     from);
//   - a head is a candidate unless it is a present message that is a reply,
//     i.e. some message with that Message-ID has a head other than itself;
//   - the root is the smallest candidate in byte order; normally there is
//     exactly one, the first message's id, present or not. Only when every
//     head is a reply (a cycle of heads, which only forged mail makes) is
//     the root the smallest head.
//
// A thread's id therefore changes only when (a) it merges with another
// thread (the merged thread's root is the smallest candidate of both), or
// (b) a message arrives that shows an older root: a smaller candidate, or
// the current root turns out to be a reply to something older. Each Add
// reports every id it retired as Alias{Old, New}: at most one per thread
// the message touched (its own id, In-Reply-To, References, subject),
// plus a rename of each other thread whose root id it came to share or
// stopped sharing, so the store persists an alias table with a bounded
// number of writes.
// An id can come back: when a retired id is live again Add reports it as
// Change.ThreadID, and the store drops any alias whose Old it is.
//
// # Subject fallback
//
// With Options.BySubject (`[ui] thread_by_subject`, default off) a message
// with no valid In-Reply-To and no valid References also joins a node for
// its subject.Base (of the subject's first 1 KB; the node keeps only a
// hash), when that is not empty: root-level messages with the
// same base subject become one thread (JWZ's subject grouping), replies
// never join through their subject. With the option off, unlinked messages
// with one subject stay apart.
//
// # Re-adding a message
//
// Adding a Key again (the threading headers fetched again for mail already
// stored) replaces that row's head, so the root follows the newest
// version; its links only grow (union-find cannot split), so links of an
// older version stay. There is no Remove: a row deleted from the store
// keeps its links until the next rebuild (a launch), which is cheap
// (Grow, then Add every row: ~2 µs a row).
//
// # Display
//
// Order lays out one thread's messages (Members, or the store's rows of
// one thread_id and its aliases) as a tree and a flat list; it does not
// need the Threader.
package thread

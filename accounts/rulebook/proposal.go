package rulebook

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Agents' rule proposals (issue 40): an agent may only propose a rule; it
// waits here, in the user's data, until a person accepts it into the
// rules file or rejects it. Nothing in this table ever acts on mail.

// Proposal states.
const (
	Pending  = "pending"
	Accepted = "accepted"
	Rejected = "rejected"
)

// Proposal is one rule an agent proposed.
type Proposal struct {
	ID     int64
	At     time.Time
	Name   string // the rule's name
	Rule   string // the [[rule]] table as it would be written (TOML)
	Reason string // the agent's words: untrusted text
	State  string
	// Decided is when a person accepted or rejected it (zero while
	// pending).
	Decided time.Time
}

// Proposal limits: perHour is counted over every process's proposals of
// the last hour, and at most maxPending wait at once, so a looping agent
// cannot bury the person's review.
var (
	// ErrProposalLimit: the hour's proposals are used up.
	ErrProposalLimit = errors.New("too many rule proposals")
	// ErrTooManyPending: the person has not reviewed enough of them yet.
	ErrTooManyPending = errors.New("too many rule proposals wait for review")
	// ErrNoProposal: no pending proposal has that id.
	ErrNoProposal = errors.New("no such pending proposal")
)

// MaxPending bounds the proposals waiting for review.
const MaxPending = 50

const proposalSchema = `
CREATE TABLE IF NOT EXISTS proposal (
	id           INTEGER PRIMARY KEY,
	at_unix      INTEGER NOT NULL,
	name         TEXT NOT NULL,
	rule         TEXT NOT NULL,
	reason       TEXT NOT NULL,
	state        TEXT NOT NULL,
	decided_unix INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS proposal_at ON proposal (at_unix);
`

// Propose keeps p as pending unless the last hour holds perHour
// proposals already or MaxPending wait: one statement, so two agents at
// once cannot both take the last one.
func (b *Book) Propose(ctx context.Context, p Proposal, perHour int, now time.Time) (int64, error) {
	db, err := b.get()
	if err != nil {
		return 0, err
	}
	res, err := db.ExecContext(ctx, `INSERT INTO proposal (at_unix, name, rule, reason, state)
		SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM proposal WHERE at_unix > ?) < ?
			AND (SELECT count(*) FROM proposal WHERE state = ?) < ?`,
		now.Unix(), p.Name, p.Rule, p.Reason, Pending, now.Add(-time.Hour).Unix(), perHour, Pending, MaxPending)
	if err != nil {
		return 0, fmt.Errorf("rules: keeping the proposal: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return res.LastInsertId()
	}
	var hour, pending int
	if err := db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM proposal WHERE at_unix > ?), (SELECT count(*) FROM proposal WHERE state = ?)`,
		now.Add(-time.Hour).Unix(), Pending).Scan(&hour, &pending); err != nil {
		return 0, fmt.Errorf("rules: counting proposals: %w", err)
	}
	if pending >= MaxPending {
		return 0, fmt.Errorf("%w: %d, the most there may be; a person must accept or reject some first", ErrTooManyPending, pending)
	}
	return 0, fmt.Errorf("%w: %d in the last hour, the limit is %d ([agent] max_rule_proposals_per_hour)", ErrProposalLimit, hour, perHour)
}

// Proposals lists the proposals in state (every state when ""), oldest
// first.
func (b *Book) Proposals(ctx context.Context, state string) ([]Proposal, error) {
	db, err := b.get()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT id, at_unix, name, rule, reason, state, decided_unix FROM proposal
		WHERE ? = '' OR state = ? ORDER BY id`, state, state)
	if err != nil {
		return nil, fmt.Errorf("rules: reading the proposals: %w", err)
	}
	defer rows.Close()
	var out []Proposal
	for rows.Next() {
		var p Proposal
		var at, decided int64
		if err := rows.Scan(&p.ID, &at, &p.Name, &p.Rule, &p.Reason, &p.State, &decided); err != nil {
			return nil, fmt.Errorf("rules: reading the proposals: %w", err)
		}
		p.At = time.Unix(at, 0)
		if decided > 0 {
			p.Decided = time.Unix(decided, 0)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PendingProposals counts what waits for review.
func (b *Book) PendingProposals(ctx context.Context) (int, error) {
	db, err := b.get()
	if err != nil {
		return 0, err
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM proposal WHERE state = ?`, Pending).Scan(&n); err != nil {
		return 0, fmt.Errorf("rules: counting proposals: %w", err)
	}
	return n, nil
}

// Answer records a person's answer on pending proposal id: Accepted or
// Rejected. A proposal answered already (by another face) is
// ErrNoProposal.
func (b *Book) Answer(ctx context.Context, id int64, state string, now time.Time) error {
	if state != Accepted && state != Rejected {
		return fmt.Errorf("rules: %q is no answer to a proposal", state)
	}
	db, err := b.get()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE proposal SET state = ?, decided_unix = ? WHERE id = ? AND state = ?`, state, now.Unix(), id, Pending)
	if err != nil {
		return fmt.Errorf("rules: answering proposal %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %d", ErrNoProposal, id)
	}
	return nil
}

// Proposal is pending proposal id.
func (b *Book) Proposal(ctx context.Context, id int64) (Proposal, error) {
	list, err := b.Proposals(ctx, Pending)
	if err != nil {
		return Proposal{}, err
	}
	for _, p := range list {
		if p.ID == id {
			return p, nil
		}
	}
	return Proposal{}, fmt.Errorf("%w: %d", ErrNoProposal, id)
}

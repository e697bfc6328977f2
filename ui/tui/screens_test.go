package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unibox/accounts/proposing"
	"unibox/accounts/send/outbox"
	"unibox/ui/tui/details"
	"unibox/ui/tui/screen/screentest"

	"unibox/model"
	"unibox/model/invite"
	"unibox/ui/tui/answering"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/proposals"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screening"
)

// openers put each mode's screen up on a model, as its key would: a new
// row in the table needs a way in here, or TestEveryModeIsAScreen fails.
var openers = map[mode]func(m *Model){
	modeList:    func(m *Model) {},
	modeMessage: func(m *Model) { m.setMode(modeMessage) },
	modeDetails: func(m *Model) {
		m.show(modeDetails, details.New(&m.env, 0, m.panes.detailsOf(0), ""))
	},
	modePicker: func(m *Model) {
		p, _ := picker.StartMove(&m.env, []model.Row{{}}, nil)
		m.show(modePicker, p)
	},
	modeReview: func(m *Model) { m.compose.Review = true; m.setMode(modeReview) },
	modeDrafts: func(m *Model) { m.show(modeDrafts, compose.NewDrafts(&m.env, []screen.Account{m.panes.accts[0].acct})) },
	modeFolders: func(m *Model) {
		p, _ := picker.NewFolders(&m.env, 0, m.panes.accts[0].acct)
		m.show(modeFolders, p)
	},
	modeSnooze: func(m *Model) { m.show(modeSnooze, picker.StartSnooze(&m.env, []model.Row{{}}, m.env.Opts.Now())) },
	modeQuit: func(m *Model) {
		m.show(modeQuit, compose.NewQuit(&m.env, []outbox.Entry{{SendAt: m.env.Opts.Now().Add(8 * time.Second)}}))
	},
	modeProposals: func(m *Model) {
		v, _ := proposals.New(&m.env, &proposing.Desk{})
		m.show(modeProposals, v)
	},
	modeAnswer: func(m *Model) {
		data, _ := os.ReadFile("../../model/invite/testdata/google-request.ics")
		inv, _ := invite.Parse(data, time.UTC)
		card := invite.Describe(inv, invite.Reader{Addresses: []string{"sam@example.com"}, Zone: time.UTC})
		m.show(modeAnswer, answering.New(&m.env, m.panes.accts[0].acct, model.Body{}, inv, card, nil, time.UTC))
	},
	modeScreener: func(m *Model) {
		v, _ := screening.New(&m.env, []screen.Account{m.panes.accts[0].acct})
		m.show(modeScreener, v)
	},
}

// noMsg is a message no screen owns.
type noMsg struct{}

// Every mode of the table is a screen with all four: a body of exactly
// the height it is given, a header, help whose every key is one of the
// actions its row checks for clashes, and an update that keeps it up on a
// message it does not own. The frame draws the screen's header and help.
func TestEveryModeIsAScreen(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	for md := range modeCount {
		t.Run(md.String(), func(t *testing.T) {
			row := screens[md]
			open, ok := openers[md]
			if row.name == "" || row.place == "" || len(row.actions) == 0 || !ok {
				t.Fatalf("row %d: name %q, place %q, %d actions, opener %v", md, row.name, row.place, len(row.actions), ok)
			}
			m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work"}}, Now: func() time.Time { return now }, NoTick: true})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			open(m)
			if m.frame.mode != md {
				t.Fatalf("the opener left %s", m.frame.mode)
			}
			s := m.screenAt(now)
			if s == nil {
				t.Fatal("no screen")
			}
			if v := s.View(60, 7); strings.Count(v, "\n") != 6 {
				t.Errorf("view is %d lines, want 7:\n%s", strings.Count(v, "\n")+1, v)
			}
			h := s.Header()
			if h == "" || !strings.Contains(m.View(), h[:min(len(h), 30)]) {
				t.Errorf("header %q is not on the frame:\n%s", h, m.View())
			}
			keys := map[string]bool{}
			acts := m.env.Keys.Actions()
			for _, a := range row.actions {
				b, ok := acts[a]
				if !ok {
					t.Errorf("unknown action %q", a)
					continue
				}
				for _, k := range b.Keys() {
					keys[k] = true
				}
			}
			if len(s.ShortHelp()) == 0 || len(s.FullHelp()) == 0 {
				t.Errorf("no help: %d short, %d full", len(s.ShortHelp()), len(s.FullHelp()))
			}
			for _, col := range s.FullHelp() {
				for _, b := range col {
					for _, k := range b.Keys() {
						if !keys[k] {
							t.Errorf("help shows %q (%s), a key of none of the row's actions", k, b.Help().Desc)
						}
					}
				}
			}
			if next, _ := s.Update(noMsg{}); next == nil {
				t.Error("a message it does not own ended the screen")
			}
			if m.updateScreen(noMsg{}); m.frame.mode != md || m.screenAt(now) == nil {
				t.Errorf("a message it does not own left %s", m.frame.mode)
			}
		})
	}
}

// modeExceptions are the files of flows not yet moved into their
// screens that still compare the mode, with how many times: none now.
// A flow that must know where it runs asks its screen, or its row.
var modeExceptions = map[string]int{}

// No mode is compared outside the table (screens.go): a view's body,
// header, help and keys are found there, so a new screen is a file and a
// row. Any exception is listed above, with its count.
func TestModesComparedOnlyInTheTable(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	found := map[string]int{}
	parsed := map[string]*ast.File{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
	}
	for _, d := range parsed["screens.go"].Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, sp := range g.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					consts[n.Name] = true
				}
			}
		}
	}
	if !consts["modeList"] || !consts["modeSnooze"] {
		t.Fatalf("the mode constants are not declared in screens.go: %v", consts)
	}
	isMode := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && consts[id.Name]
	}
	for name, f := range parsed {
		if name == "screens.go" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isMode(n.X) || isMode(n.Y)) {
					found[name]++
				}
			case *ast.CaseClause:
				if slices.ContainsFunc(n.List, isMode) {
					found[name]++
				}
			}
			return true
		})
	}
	for name, n := range found {
		if modeExceptions[name] != n {
			t.Errorf("%s compares the mode %d times, the exceptions say %d", name, n, modeExceptions[name])
		}
	}
	for name, n := range modeExceptions {
		if found[name] == 0 {
			t.Errorf("%s is an exception for %d comparisons it no longer makes: take it off the list", name, n)
		}
	}
}

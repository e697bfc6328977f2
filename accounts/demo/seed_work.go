package demo

import "time"

// The Work account: Sam's job on the platform team of a made-up company at
// example.com, in the middle of rolling out a sync service called Atlas.
// It shows threads (Re:/Fwd:), machine mail (CI, tracker, code review),
// non-ASCII names in three scripts, an invite, a PDF, an HTML newsletter
// with a script that must never show, and a subject too long for one line.

var (
	workMe   = sam("work@demo.unibox", 60)
	zoe      = person{"Zoë Müller", "zoe.mueller@example.com", 120}
	lukasz   = person{"Łukasz Nowak", "lukasz.nowak@example.com", 120}
	masato   = person{"高橋 雅人", "m.takahashi@example.com", 540}
	priya    = person{"Priya Raman", "priya.raman@example.com", 60}
	dana     = person{"Dana Okafor", "dana.okafor@example.com", -240}
	marco    = person{"Marco Bianchi", "marco.bianchi@example.com", 120}
	ci       = person{"Atlas CI", "ci@example.com", 0}
	tracker  = person{"Tracker", "tracker@example.com", 0}
	review   = person{"Code Review", "review@example.com", 0}
	security = person{"Security Team", "security@example.com", 0}
	peopleT  = person{"People Team", "people@example.com", 60}
	helpdesk = person{"IT Helpdesk", "helpdesk@example.com", 60}
	weekly   = person{"Engineering Weekly", "newsletter@example.org", -420}
	devconf  = person{"DevConf Tickets", "tickets@example.net", -300}
	platform = person{"Platform Team", "platform-team@example.com", 60}
)

// autoHeaders mark machine-sent mail, as real CI and trackers do.
var autoHeaders = []string{"Auto-Submitted: auto-generated", "Precedence: bulk"}

func workMessages(now time.Time) []msg {
	// The go/no-go meeting is two working days ahead, at 09:00 UTC.
	start := now.UTC().Truncate(24 * time.Hour).Add(2*days + 9*hours)
	for start.Weekday() == time.Saturday || start.Weekday() == time.Sunday {
		start = start.Add(days)
	}
	goNoGo := invite{
		uid: "atlas-go-no-go@demo.unibox", summary: "Atlas go/no-go", start: start, length: 45 * mins,
		location:    "Room 4.12 (Lighthouse) and video",
		description: "Decide whether Atlas goes to 100% of accounts.\nPlease read the rollout plan thread first.",
		organizer:   priya, attendees: []person{workMe, zoe, lukasz, masato},
	}
	return []msg{
		// The Atlas rollout thread, oldest first.
		{id: "rollout-1", ago: 3*days + 5*hours, from: zoe, cc: []person{lukasz}, subject: "Atlas rollout plan", answered: true, text: `
Hi Sam,

Here is my proposal for rolling Atlas out. The short version: three waves, each gated on the error budget, with a one-click way back.

- Wave 1 (10%): internal accounts and the beta group
- Wave 2 (50%): everyone on the new storage backend
- Wave 3 (100%): the rest, after a quiet weekend
- Rollback: flip the "atlas.enabled" flag; old sync stays warm for two weeks

Could you sanity-check the numbers on the error budget? Łukasz thinks 0.5% is too tight for wave 2.

Danke!
Zoë`},
		{id: "rollout-2", folder: "Sent", ago: 2*days + 20*hours, to: []person{zoe}, cc: []person{lukasz}, subject: "Re: Atlas rollout plan", re: []string{"rollout-1"}, text: `
Hi Zoë,

Looks good to me. On the budget: I'd keep 0.5% for wave 1 and relax it to 1% for wave 2, since that's where the old storage quirks will show up.

One more thing for the plan: let's freeze deploys of the old sync while a wave is running, so we can tell the two apart in the graphs.

Sam

> Could you sanity-check the numbers on the error budget? Łukasz thinks 0.5% is too tight for wave 2.`},
		{id: "rollout-3", ago: 1*days + 3*hours, from: lukasz, to: []person{workMe, zoe}, subject: "Re: Atlas rollout plan", re: []string{"rollout-1", "rollout-2"}, text: `
1% for wave 2 works for me. I've added the deploy freeze to the runbook.

I also want a dashboard panel for reconnects per minute: that's the number that went wrong in the last incident, and it isn't in the error budget at all.

Łukasz

> One more thing for the plan: let's freeze deploys of the old sync while a wave is running, so we can tell the two apart in the graphs.`},
		{id: "rollout-4", ago: 35 * mins, from: zoe, cc: []person{lukasz}, subject: "Re: Atlas rollout plan", re: []string{"rollout-1", "rollout-2", "rollout-3"}, unread: true, text: `
Great, the reconnect panel is up (top right on the Atlas dashboard).

Wave 1 has been running since this morning: 0.2% errors, no reconnect storms. Unless someone objects at the go/no-go, I'll start wave 2 right after.

Zoë

> I also want a dashboard panel for reconnects per minute.`},

		// CI, code review and the tracker.
		{id: "ci-1842", ago: 47 * mins, from: ci, subject: "[atlas] Build failed: main #1842 (3 jobs failed)", unread: true, headers: autoHeaders, text: `
Pipeline #1842 failed on branch main.

Commit:    9f3c2ab "sync: retry IDLE after server timeout"
Author:    Łukasz Nowak
Triggered: push

Failed jobs:
- test-race (linux/amd64): 2 failures in ./sync/...
- test-race (linux/arm64): 2 failures in ./sync/...
- lint: 1 issue

First failure:
--- FAIL: TestIdleReconnect (5.02s)
    idle_test.go:88: timed out waiting for EXISTS after reconnect

Pipeline: https://ci.example.com/atlas/pipelines/1842

You get this mail because you watch failures on main.`},
		{id: "ci-1843", ago: 9 * mins, from: ci, subject: "[atlas] Build fixed: main #1843", unread: true, headers: autoHeaders, text: `
Pipeline #1843 passed on branch main; main was broken since #1842.

Commit: 41d07e9 "sync: wait for the reconnect before asserting EXISTS"
Duration: 6m 12s, 14 jobs

Pipeline: https://ci.example.com/atlas/pipelines/1843`},
		{id: "ci-1838", ago: 1*days + 1*hours, from: ci, subject: "[atlas] Build failed: release/2.4 #1838", headers: autoHeaders, text: `
Pipeline #1838 failed on branch release/2.4.

Failed jobs:
- package (linux/arm64): signing key not found

Pipeline: https://ci.example.com/atlas/pipelines/1838`},
		{id: "review-412", ago: 4 * hours, from: review, subject: "[atlas] Review requested: Retry IDLE after server timeout (#412)", unread: true, headers: autoHeaders, text: `
Łukasz Nowak requested your review on #412.

Retry IDLE after server timeout

Some servers end IDLE after 29 minutes without saying so. This change re-issues IDLE after 25 minutes and treats a silent connection as dead after 31.

 sync/idle.go      | 48 ++++++++++++++++++++-------
 sync/idle_test.go | 61 +++++++++++++++++++++++++++++++++++

Review: https://review.example.com/atlas/412`},
		{id: "atlas-231", ago: 6 * hours, from: tracker, subject: "[ATLAS-231] Sync stalls when the server drops the connection during FETCH", headers: autoHeaders, text: `
Zoë Müller commented on ATLAS-231:

I can reproduce this with the flaky test server: drop the connection in the middle of a large FETCH and the worker waits forever on the half-read literal. We need a read deadline per response, not per command.

Status: In progress    Priority: High    Assignee: Sam Rivera

https://tracker.example.com/browse/ATLAS-231`},
		{id: "atlas-219", ago: 2*days + 3*hours, from: tracker, subject: "[ATLAS-219] Resolved: Unread counts drift after MOVE", headers: autoHeaders, text: `
Łukasz Nowak changed the status of ATLAS-219 to Resolved.

Fixed in #398: counts are now recomputed from the server's STATUS after every MOVE instead of being adjusted locally.

https://tracker.example.com/browse/ATLAS-219`},

		// People.
		{id: "go-no-go", ago: 2 * hours, from: priya, subject: "Invitation: Atlas go/no-go @ " + start.Format("Mon 2 Jan 15:04 MST"), unread: true,
			attach: []attachment{{"text/calendar; charset=utf-8; method=REQUEST", "invite.ics", goNoGo.ics(now.Add(-2 * hours))}}, text: `
Priya Raman invites you to a meeting.

Atlas go/no-go
When: ` + start.Format("Monday 2 January, 15:04 MST") + ` (45 minutes)
Where: Room 4.12 (Lighthouse) and video

Decide whether Atlas goes to 100% of accounts. Please read the rollout plan thread first.

Going? Yes / Maybe / No: reply from your calendar.`},
		{id: "tokyo", ago: 1*hours + 20*mins, from: masato, subject: "Tokyo office: demo environment access", unread: true, text: `
Hi Sam,

The Tokyo team would like to try Atlas before wave 2 reaches our accounts. Could you give these four people access to the demo environment?

- 佐藤 花子 (Hanako Sato)
- 鈴木 一郎 (Ichiro Suzuki)
- Ana Lima
- Kenji Watanabe

We will hold our test session on Thursday morning, Tokyo time, so there is no rush today.

よろしくお願いします。
高橋 雅人 (Masato Takahashi)`},
		{id: "fwd-feedback", ago: 3 * hours, from: lukasz, subject: "Fwd: Customer feedback on the beta", flagged: true, text: `
Sam, this one is for you: the folder sync part is exactly ATLAS-231.

Ł.

---------- Forwarded message ---------
From: Customer Success <success@example.com>
Subject: Customer feedback on the beta

Summary of this week's beta feedback:

- "Sync is noticeably faster, especially on big folders." (12 mentions)
- "Sometimes a folder stops updating until I restart." (4 mentions)
- "Love the unified unread count." (3 mentions)

The stalled-folder reports all come from customers on hotel or train Wi-Fi.`},
		{id: "q3-report", ago: 5 * hours, from: dana, subject: "Q3 report (final numbers)", flagged: true, answered: true,
			attach: []attachment{{"application/pdf", "Q3 report.pdf", pdfDoc("Q3 report", "Platform team - final numbers",
				"Infrastructure spend: 4% under budget", "Atlas beta: 1,200 accounts, 0.3% sync errors",
				"Support tickets about sync: down 18% quarter on quarter", "(Demo document: all figures are made up.)")}}, text: `
Hi Sam,

Attached are the final Q3 numbers for the platform team. The infrastructure line came in 4% under budget, mostly thanks to the storage migration.

Could you add two sentences on Atlas for the summary page by Wednesday?

Thanks,
Dana`},
		{id: "q3-reply", folder: "Sent", ago: 4*hours + 10*mins, to: []person{dana}, subject: "Re: Q3 report (final numbers)", re: []string{"q3-report"}, text: `
Thanks Dana, great news on the storage line. I'll send the Atlas paragraph tomorrow.

Sam`},
		{id: "weekly-112", ago: 9 * hours, from: weekly, subject: "Engineering Weekly #112: flaky tests, faster builds", unread: true,
			headers: []string{"List-Id: Engineering Weekly <weekly.example.org>", "List-Unsubscribe: <https://example.org/unsubscribe/weekly>"}, html: weeklyHTML},
		{id: "policy", ago: 22 * hours, from: security, subject: "Action required: please review and approve the updated security policy for third-party access to production data before the end of the quarter, including the new exception process and the quarterly access review", unread: true, flagged: true, text: `
Hello,

We have updated the policy for third-party access to production data. All team leads need to review and approve it before the end of the quarter.

What changed:
- vendors get time-limited access only, 30 days at most
- every exception needs a named owner and an expiry date
- access is reviewed every quarter, not every year

Please approve or comment here: https://security.example.com/policies/third-party

Thank you,
Security Team`},
		{id: "notes-sync", ago: 1*days + 2*hours, from: priya, to: []person{platform, workMe}, subject: "Notes: Atlas weekly sync", text: `
Hi all, notes from today's sync.

Attendees: Zoë, Łukasz, Masato, Sam, Priya

Decisions:
- Wave 1 starts tomorrow morning (Zoë)
- Error budget: 0.5% for wave 1, 1% for wave 2
- Old sync stays warm for two weeks after wave 3

Action items:
- Sam: fix the FETCH stall (ATLAS-231) before wave 2
- Łukasz: reconnects-per-minute panel on the dashboard
- Masato: line up Tokyo testers for the demo environment
- Priya: schedule the go/no-go

Next sync: same time next week.

Priya`},
		{id: "slides", ago: 1*days + 8*hours, from: zoe, subject: "Slides for Thursday's demo", answered: true, text: `
Hi Sam,

I'm putting the demo slides together. Could you send me a screenshot of the new sync status page, and one sentence on what changed in retries?

Ten slides, twenty minutes, lots of time for questions.

Zoë`},
		{id: "slides-reply", folder: "Sent", ago: 1*days + 6*hours, to: []person{zoe}, subject: "Re: Slides for Thursday's demo", re: []string{"slides"}, text: `
Sure, screenshot coming this afternoon. One sentence on retries: "Atlas now backs off per account instead of per server, so one slow provider no longer delays everyone else."

Sam`},
		{id: "lunch", ago: 1*days + 5*hours, from: marco, subject: "Lunch on Thursday?", answered: true, text: `
Ciao Sam! The new ramen place on the corner finally opened. Thursday at 12:30? I'll ask Zoë too.

Marco`},
		{id: "lunch-reply", folder: "Sent", ago: 1*days + 4*hours, to: []person{marco}, subject: "Re: Lunch on Thursday?", re: []string{"lunch"}, text: `
Yes please! 12:30 works. Sam`},
		{id: "status-draft", folder: "Drafts", ago: 50 * mins, to: []person{priya}, subject: "Atlas status for leadership", draft: true, text: `
Hi Priya,

Draft for the leadership update:

Atlas wave 1 is live for 10% of accounts with 0.2% sync errors, well inside the budget. The FETCH stall (ATLAS-231) is understood and the fix is in review.

[TODO: add wave 2 date after the go/no-go]`},
		{id: "expenses", ago: 2 * days, from: peopleT, subject: "Reminder: submit your expenses by Friday", text: `
Hi everyone,

A friendly reminder that expenses for this month need to be in by Friday at 17:00. Claims submitted later will be paid next month.

People Team`},
		{id: "vpn", ago: 2*days + 6*hours, from: helpdesk, subject: "Planned maintenance: VPN on Saturday, 02:00–04:00 UTC", text: `
The VPN will be unavailable on Saturday between 02:00 and 04:00 UTC while we upgrade the gateways. Office Wi-Fi and email are not affected.

IT Helpdesk`},
		{id: "welcome", ago: 3 * days, from: priya, to: []person{platform, workMe}, subject: "Please welcome Aiyana to the platform team!", text: `
Hi team,

Please join me in welcoming Aiyana, who starts today as a backend engineer. Aiyana comes from a payments team and knows more about retries than all of us together.

Say hi at the coffee machine!

Priya`},
		{id: "bookclub", ago: 4 * days, from: marco, to: []person{platform, workMe}, subject: "Book club: this month's pick", text: `
This month we're reading "Designing Data-Intensive Applications", chapters 5 to 7 (replication, partitioning, transactions). We meet in the library corner on the last Friday of the month.

Marco`},

		// Archive: the last three weeks.
		{id: "offsite", folder: "Archive", ago: 16 * days, from: priya, to: []person{platform, workMe}, subject: "Offsite agenda (final)", text: `
Day 1: roadmap, Atlas architecture review, dinner at 19:00.
Day 2: hack day, demos at 16:00.

Bring a laptop charger and good shoes, the venue is up a hill.`},
		{id: "retro", folder: "Archive", ago: 19 * days, from: priya, to: []person{platform, workMe}, subject: "Q2 retro notes", text: `
What went well:
- storage migration finished a week early
- on-call load down by a third

What to improve:
- flaky tests: 40% of reruns come from 5% of tests
- release notes are written too late`},
		{id: "laptop", folder: "Archive", ago: 12 * days, from: helpdesk, subject: "Your new laptop is ready for pickup", text: `
Your replacement laptop is ready at the helpdesk on floor 2. Please bring the old one with you.`},
		{id: "benefits", folder: "Archive", ago: 10 * days, from: peopleT, subject: "Benefits enrolment closes on the 30th", text: `
Open enrolment closes on the 30th. If you want to change your plan, do it in the benefits portal before then.`},
		{id: "hiring", folder: "Archive", ago: 8 * days, from: zoe, subject: "Re: Hiring loop for the backend role", re: []string{"hiring-0"}, text: `
Thanks for doing the system design interview. I agree: strong hire. I'll write up the debrief.

Zoë`},
		{id: "ci-1790", folder: "Archive", ago: 6*days + 2*hours, from: ci, subject: "[atlas] Build failed: main #1790", headers: autoHeaders, text: `
Pipeline #1790 failed on branch main.

Failed jobs:
- test (linux/amd64): TestMoveUpdatesCounts

Pipeline: https://ci.example.com/atlas/pipelines/1790`},
		{id: "channel", folder: "Archive", ago: 20 * days, from: lukasz, subject: "Welcome to the Atlas project", text: `
Hi Sam, welcome aboard! The design doc, the runbook and the dashboard are linked from the project page. Ask me anything.

Łukasz`},

		// Trash.
		{id: "devconf", folder: "Trash", ago: 5 * days, from: devconf, subject: "Last chance: early-bird tickets end tonight", alt: true, text: `
Early-bird prices for DevConf end tonight at midnight.

- 60 talks over two days
- workshops on observability and testing
- free coffee, unlimited

Get your ticket: https://devconf.example.net/tickets`},
		{id: "pizza", folder: "Trash", ago: 6 * days, from: peopleT, subject: "Pizza in the kitchen on floor 3!", text: `
Leftover pizza from the all-hands in the kitchen on floor 3. First come, first served!`},
		{id: "ci-1801", folder: "Trash", ago: 7 * days, from: ci, subject: "[atlas] Build failed: feature/idle-backoff #1801", headers: autoHeaders, text: `
Pipeline #1801 failed on branch feature/idle-backoff.

Failed jobs:
- lint: 3 issues

Pipeline: https://ci.example.com/atlas/pipelines/1801`},
	}
}

// weeklyHTML is an HTML-only newsletter, as many are. Its <style> and its
// <script> are there to show that unibox renders neither: a reader must
// see the articles, never "trackReader" or the CSS.
const weeklyHTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Engineering Weekly #112</title>
<style>
body { margin: 0; background: #fafafa; font-family: Georgia, serif; color: #1d1d1f; }
.issue { max-width: 640px; margin: 0 auto; padding: 24px; background: #fff; }
h2 { border-bottom: 2px solid #1d1d1f; padding-bottom: 4px; }
.preheader { display: none; }
</style>
<script>
// Tracking snippet: a terminal mail reader must never show or run this.
window.trackReader = function () { document.title = "TRACKED"; new Image().src = "https://example.org/t.gif?i=112"; };
trackReader();
</script>
</head>
<body><div class="issue">
<span class="preheader">Flaky tests, faster builds and a new on-call rota.</span>
<h1>Engineering Weekly <small>#112</small></h1>
<p>Hi Sam, here is what the engineering teams shipped and learned this week.</p>
<h2>Flaky tests: the 5% that cost 40% of reruns</h2>
<p>The test-health dashboard now ranks tests by the reruns they cause. The top twenty are quarantined automatically until someone fixes them.</p>
<h2>Builds got faster</h2>
<ul>
<li>Remote cache hit rate: 61% &rarr; 88%</li>
<li>Median main build: 14 min &rarr; 6 min</li>
<li>Docker layers are now shared between jobs</li>
</ul>
<h2>On-call</h2>
<p>From next month the rota is per service, not per team. Swap requests go through the on-call bot.</p>
<p><a href="https://example.org/weekly/112">Read on the web</a> &middot; <a href="https://example.org/unsubscribe/weekly">Unsubscribe</a></p>
</div></body></html>
`

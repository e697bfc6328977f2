package demo

import "time"

// The Yahoo account: an old address that now gets mostly promotions, with
// a few real messages in between. It is the demo's "flaky" account, and
// it holds the demo's deliberately bad mail:
//   - a hostile invoice whose subject and body carry terminal escape
//     sequences and a right-to-left override, to show unibox sanitising;
//   - a message without a Date header (an old phone mail app);
//   - a digest whose MIME boundary does not match the one it declares.
//
// Its junk folder is called "Bulk" and its drafts "Draft", as Yahoo's are.

var (
	megamart  = person{"MegaMart Deals", "deals@megamart.example.com", -300}
	wander    = person{"Wanderlust Travel", "offers@travel.example.net", 0}
	recipes   = person{"Weeknight Recipes", "recipes@cook.example.org", -300}
	retro     = person{"Retro Gaming Monthly", "newsletter@retro.example.org", -480}
	rewards   = person{"Example Rewards", "rewards@example.com", -300}
	exampleTV = person{"Example TV", "hello@tv.example.com", -480}
	academy   = person{"Cloud Academy Live", "events@academy.example.net", 0}
	fitlife   = person{"FitLife Coach", "coach@fitlife.example.org", -300}
	billing   = person{"Billing Department", "billing@invoices.example.net", 0}
	chris     = person{"Chris Okoro", "chris.okoro@example.org", 0}
	jess      = person{"Jess Martin", "jess.martin@example.net", -300}
	tom       = person{"Tom Becker", "tom.becker@example.net", 60}
	forum     = person{"Hiking Forum", "digest@forum.example.org", 0}
	prize     = person{"Prize Center", "winner@prizes.example.net", 0}
	verify    = person{"Account Security", "security-alert@verify.example.net", 0}
)

// Message-IDs of the deliberately bad messages, for the tests.
const (
	hostileID        = "<invoice-hostile.yahoo@demo.unibox>"
	noDateID         = "<carpool-nodate.yahoo@demo.unibox>"
	brokenBoundaryID = "<digest-broken.yahoo@demo.unibox>"
)

// hostileSubject changes the terminal's title, paints "invoice" red and
// hides an .exe behind a right-to-left override; sanitised it reads
// "Your invoice is ready: invoice_fdp.exe".
const hostileSubject = "\x1b]0;pwned\x07Your \x1b[31minvoice\x1b[0m is ready: invoice_\u202efdp.exe"

const hostileBody = "Dear customer,\n" +
	"\n" +
	"Your invoice \x1b]8;;https://invoices.example.net/pay\x1b\\is ready\x1b]8;;\x1b\\.\n" +
	"Attachment: invoice_\u202efdp.exe\n" +
	"\x1b[2J\x1b[H\x1b]52;c;ZWNobyBwd25lZA==\x07Amount due: \x1b[5m\x1b[1m0.00\x1b[0m\n" +
	"\n" +
	"About this message: it is part of the unibox demo. Its subject and this text carry terminal escape sequences (a window title change, colours, a screen clear, a clipboard write and a hidden link) and a right-to-left override that makes an .exe look like a PDF. If all you see is plain, harmless text, unibox has done its job.\n"

func yahooMessages(time.Time) []msg {
	promo := func(list string) []string {
		return []string{"List-Unsubscribe: <https://" + list + "/unsubscribe>", "Precedence: bulk"}
	}
	return []msg{
		// The deliberately bad ones.
		{id: "invoice-hostile", ago: 25 * mins, from: billing, subject: hostileSubject, rawSubject: true, unread: true, text: hostileBody},
		{id: "carpool-nodate", ago: 3*hours + 15*mins, from: tom, subject: "Carpool this week?", noDate: true, unread: true,
			headers: []string{"X-Mailer: PocketMail 1.2 (old phone)"}, text: `
Hi Sam, can you drive on Wednesday and Thursday? My car is at the garage until Friday. I can do all of next week instead.

Tom

Sent from my phone`},
		{id: "digest-broken", ago: 7 * hours, from: forum, subject: "Hiking Forum digest: 5 new posts in topics you follow", unread: true,
			headers: []string{"X-Mailer: DigestBot 0.9"},
			// The header declares boundary "digest-7f3a", but after the first
			// part the mailer switches to "digest-7f3b" and never closes the
			// declared one. (With no declared boundary at all, go-imap's
			// server panics on FETCH BODYSTRUCTURE: a multipart needs a part.)
			rawType: `multipart/alternative; boundary="digest-7f3a"`, rawBody: `This is a multi-part message in MIME format.

--digest-7f3a
Content-Type: text/plain; charset=utf-8

Hiking Forum: new posts in topics you follow

- Best trails near the coast (12 replies)
- Boots vs. trail runners, again (31 replies)
- Lost: blue water bottle at the summit hut (2 replies)
- Hut opening dates for the summer (4 replies)
- Photo thread: autumn colours (58 replies)

--digest-7f3b
Content-Type: text/html; charset=utf-8

<html><body><h1>Hiking Forum digest</h1><ul><li>Best trails near the coast</li><li>Boots vs. trail runners, again</li></ul></body></html>
--digest-7f3b--
`},

		// The few real ones.
		{id: "chris", ago: 1*days + 3*hours, from: chris, subject: "Long time no see!", flagged: true, answered: true, text: `
Sam! I found your old address in my contacts and thought I'd try it. Are you still in town? I'm moving back in the autumn and would love to catch up over a coffee.

Chris`},
		{id: "chris-reply", folder: "Sent", ago: 1 * days, to: []person{chris}, subject: "Re: Long time no see!", re: []string{"chris"}, text: `
Chris! So good to hear from you. Yes, still here; coffee as soon as you're back. This address still works, but personal@demo.unibox is better.

Sam`},
		{id: "reunion", ago: 2*days + 5*hours, from: jess, subject: "High school reunion: save the date", text: `
Hi everyone,

It's been fifteen years (!), so we're organising a reunion in the old gym on the first Saturday of next month. Food, music and the terrible yearbook photos.

Please reply by the end of the month so we know how many are coming.

Jess`},
		{id: "reunion-2", ago: 9 * hours, from: jess, subject: "Re: High school reunion: save the date", re: []string{"reunion"}, unread: true, text: `
Quick update: 42 people so far! Could anyone lend a projector for the slideshow?

Jess`},

		// Promotions and newsletters.
		{id: "flash-sale", ago: 50 * mins, from: megamart, subject: "⚡ Flash sale: 40% off hiking gear, today only", unread: true, alt: true, headers: promo("megamart.example.com"), text: `
Today only: 40% off hiking gear.

- Waterproof jackets from 59.99
- Trail shoes from 49.99
- Tents, sleeping bags and stoves

Shop the sale: https://megamart.example.com/flash`},
		{id: "wishlist", ago: 2 * hours, from: megamart, subject: "Price drop on an item in your wishlist", unread: true, alt: true, headers: promo("megamart.example.com"), text: `
Good news! The "Ultralight 2-person tent" in your wishlist is now 149.00 (was 189.00).

See it: https://megamart.example.com/wishlist`},
		{id: "lisbon-deal", ago: 4 * hours, from: wander, subject: "Lisbon from 39: spring city breaks", unread: true, alt: true, headers: promo("travel.example.net"), text: `
Spring city breaks from 39 one way:

- Lisbon, from 39
- Porto, from 45
- Seville, from 52

Book by Sunday: https://travel.example.net/spring`},
		{id: "recipes-1", ago: 11 * hours, from: recipes, subject: "5 dinners in 30 minutes: this week's menu", unread: true, alt: true, headers: promo("cook.example.org"), text: `
This week's menu:

- Monday: lemon pasta with peas
- Tuesday: black bean tacos
- Wednesday: miso salmon with rice
- Thursday: halloumi traybake
- Friday: homemade pizza

Shopping list and recipes: https://cook.example.org/menus/this-week`},
		{id: "retro-1", ago: 20 * hours, from: retro, subject: "Retro Gaming Monthly: the cartridge that saved a console", unread: true, alt: true, headers: promo("retro.example.org"), text: `
In this issue:

- The cartridge that saved a console: an interview with its only programmer
- Repairing a cracked handheld screen, step by step
- Reader high scores

Read online: https://retro.example.org/issues/87`},
		{id: "points", ago: 1*days + 7*hours, from: rewards, subject: "Your 1,250 points expire in 7 days", alt: true, headers: promo("example.com/rewards"), text: `
You have 1,250 reward points that expire in 7 days. That's enough for a free coffee, or 5.00 off your next order.

Use them: https://example.com/rewards`},
		{id: "tv", ago: 1*days + 12*hours, from: exampleTV, subject: "New this week: 3 shows we think you'll love", alt: true, headers: promo("tv.example.com"), text: `
New this week:

- The Lighthouse: a slow, beautiful mystery
- Kitchen Wars, season 4
- Planet Underwater, the finale

Watch now: https://tv.example.com/new`},
		{id: "webinar", ago: 2 * days, from: academy, subject: "Invitation: Kubernetes for beginners (free live webinar)", alt: true, headers: promo("academy.example.net"), text: `
Join our free live webinar next Wednesday at 17:00 UTC. No experience needed.

Save your seat: https://academy.example.net/webinars/k8s-101`},
		{id: "fitlife", ago: 2*days + 14*hours, from: fitlife, subject: "Your weekly plan: 3 runs, 2 strength sessions", alt: true, headers: promo("fitlife.example.org"), text: `
Here's your plan for the week:

- Monday: easy run, 30 minutes
- Tuesday: strength, 20 minutes
- Thursday: intervals, 6 x 2 minutes
- Friday: strength, 20 minutes
- Sunday: long run, 60 minutes

Open the app to start: https://fitlife.example.org/plan`},
		{id: "recipes-0", ago: 4*days + 11*hours, from: recipes, subject: "Soup season: 4 one-pot recipes", alt: true, headers: promo("cook.example.org"), text: `
Four one-pot soups for cold evenings:

- Roasted tomato and red pepper
- Leek and potato
- Spiced lentil
- Chicken noodle

Get the recipes: https://cook.example.org/soups`},
		{id: "megamart-weekly", ago: 5 * days, from: megamart, subject: "Your weekly deals are here", alt: true, headers: promo("megamart.example.com"), text: `
This week's top deals, picked for you:

- Headphones: 30% off
- Coffee makers: 25% off
- Board games: buy 2, get 1 free

See all deals: https://megamart.example.com/weekly`},
		{id: "retro-0", ago: 6 * days, from: retro, subject: "Retro Gaming Monthly: build your own arcade cabinet", alt: true, headers: promo("retro.example.org"), text: `
This month: build your own arcade cabinet from one sheet of plywood, plus the ten best two-player games to put in it.

Read online: https://retro.example.org/issues/86`},
		{id: "wander-1", ago: 7 * days, from: wander, subject: "Last-minute weekend: mountains or the sea?", alt: true, headers: promo("travel.example.net"), text: `
Mountains or the sea? Either way, our last-minute weekends start at 99 including the hotel.

Choose: https://travel.example.net/last-minute`},
		{id: "points-0", ago: 9 * days, from: rewards, subject: "You earned 150 points!", alt: true, headers: promo("example.com/rewards"), text: `
Thanks for your order! You earned 150 points. Your balance is now 1,250 points.

https://example.com/rewards`},
		{id: "review-ask", ago: 3*days + 4*hours, from: megamart, subject: "How did we do? Rate your recent purchase", alt: true, headers: promo("megamart.example.com"), text: `
Thanks for your recent order! How do you like your "Insulated water bottle, 750 ml"?

Leave a review: https://megamart.example.com/reviews`},
		{id: "saved-search", ago: 1*days + 18*hours, from: wander, subject: "Your saved search: Porto, 3 nights in May", unread: true, alt: true, headers: promo("travel.example.net"), text: `
New results for your saved search:

- Riverside guesthouse, 3 nights from 186
- Old town apartment, 3 nights from 240

See them all: https://travel.example.net/saved/porto-may`},
		{id: "tv-continue", ago: 3*days + 20*hours, from: exampleTV, subject: "Continue watching: The Lighthouse, episode 3", alt: true, headers: promo("tv.example.com"), text: `
You stopped at 24:10 in episode 3. Pick up where you left off: https://tv.example.com/continue`},
		{id: "academy-sql", ago: 5*days + 6*hours, from: academy, subject: "New course: SQL in a weekend", alt: true, headers: promo("academy.example.net"), text: `
Learn SQL in a weekend: ten short lessons, real data sets, and a certificate at the end.

Start for free: https://academy.example.net/courses/sql-weekend`},

		// Archive, Trash and Bulk.
		{id: "reunion-rsvp", folder: "Archive", ago: 14 * days, from: jess, subject: "Class photo from the old days", text: `
Found this in my parents' attic and thought you'd laugh. I'll bring the original to the reunion!

Jess`},
		{id: "tom-old", folder: "Archive", ago: 17 * days, from: tom, subject: "Thanks for the lift", text: `
Thanks again for the lift to the station, you saved my morning. Next coffee is on me.

Tom`},
		{id: "tv-old", folder: "Archive", ago: 20 * days, from: exampleTV, subject: "Your subscription has been renewed", text: `
Your Example TV subscription has been renewed for another month. Thank you for watching!`},
		{id: "megamart-old", folder: "Trash", ago: 8 * days, from: megamart, subject: "Don't miss out: weekend sale ends tonight", alt: true, headers: promo("megamart.example.com"), text: `
The weekend sale ends tonight at midnight. Up to 50% off selected items.

https://megamart.example.com/weekend`},
		{id: "academy-old", folder: "Trash", ago: 12 * days, from: academy, subject: "Recording: Git tips and tricks", alt: true, headers: promo("academy.example.net"), text: `
Missed the live session? Watch the recording: https://academy.example.net/recordings/git-tips`},
		{id: "fitlife-old", folder: "Trash", ago: 16 * days, from: fitlife, subject: "We haven't seen you in a while", alt: true, headers: promo("fitlife.example.org"), text: `
It's been two weeks since your last workout. A 10-minute walk counts too!

https://fitlife.example.org/`},
		{id: "prize", folder: "Bulk", ago: 1*days + 1*hours, from: prize, subject: "Congratulations!!! You have WON a 1000 gift card", unread: true, text: `
CONGRATULATIONS!!! You have been selected as our lucky winner. Claim your prize within 24 hours by replying with your full name, address and bank details.

(This is a demo spam message. Never reply to mail like this.)`},
		{id: "verify", folder: "Bulk", ago: 3 * days, from: verify, subject: "URGENT: verify your account within 24 hours", unread: true, text: `
Your account will be closed in 24 hours unless you verify your password at https://verify.example.net/login now.

(This is a demo phishing message: the real provider never asks for your password by email.)`},
		{id: "watches", folder: "Bulk", ago: 10 * days, from: prize, subject: "Luxury watches at 90% off", unread: true, text: `
Best replica watches, 90% off, free shipping worldwide. Reply STOP to stop.`},
	}
}

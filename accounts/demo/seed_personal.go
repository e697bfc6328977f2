package demo

import "time"

// The Personal account: family, friends and the machine mail of everyday
// life. It shows a photo attachment, parcel tracking, a bank notice, a
// message written entirely in ISO-8859-1, an emoji subject, a display name
// that needs quoting, and a newsletter in multipart/alternative.

var (
	mum       = person{"Helen Rivera", "helen.rivera@example.net", 0}
	leo       = person{"Leo Rivera", "leo.rivera@example.org", 60}
	amira     = person{"Amira Haddad", "amira.haddad@example.net", 60}
	renee     = person{"Renée Lefèvre", "renee.lefevre@example.org", -240}
	jonas     = person{"Jonas Weiß", "jonas.weiss@example.net", 60}
	grandpa   = person{"Grandpa Joe", "joe.rivera@example.net", 0}
	landlady  = person{"Mrs. A. Patel", "a.patel@example.net", 0}
	shop      = person{"Example Outdoor Shop", "orders@shop.example.com", 60}
	parcels   = person{"Parcel Tracking", "tracking@parcels.example.net", 60}
	bank      = person{"Example Bank", "statements@bank.example.com", 60}
	reader    = person{"The Weekend Reader", "hello@reader.example.org", 0}
	garden    = person{"Tiny Garden Club", "news@garden.example.org", 0}
	dental    = person{"Riverside Dental", "reception@dental.example.com", 60}
	library   = person{"City Library", "noreply@library.example.org", 60}
	running   = person{"Riverside Runners", "club@running.example.org", 60}
	exampleID = person{"Example ID", "no-reply@id.example.com", 0}
	books     = person{"Example Books", "receipts@books.example.com", 0}
	photos    = person{"Example Photo Prints", "hello@prints.example.net", 60}
)

func personalMessages(time.Time) []msg {
	me := sam("personal@demo.unibox", 60)
	party := "🎉 Party at ours on Saturday! 🍕"
	lisbon := "Lisbon in May?"
	return []msg{
		{id: "sunday-lunch", ago: 20 * mins, from: mum, subject: "Sunday lunch?", unread: true, text: `
Hello love,

Are you free for lunch on Sunday? Dad is doing his famous roast and Leo is bringing the kids. Around one o'clock.

Let me know if you're bringing anything, otherwise just bring yourself!

Lots of love,
Mum x`},
		{id: "party", ago: 1*hours + 5*mins, from: amira, to: []person{me, leo, jonas}, subject: party, answered: true, flagged: true, text: `
Hi all!

We finally finished painting the flat, so we're having people over on Saturday from 7pm. Pizza from the wood oven place, music, and probably too much cake.

Bring someone if you like, just tell me so I order enough pizza 🍕

Amira`},
		{id: "party-reply", folder: "Sent", ago: 40 * mins, to: []person{amira}, subject: "Re: " + party, re: []string{"party"}, text: `
Wouldn't miss it! I'll bring dessert. Sam

> We finally finished painting the flat, so we're having people over on Saturday from 7pm.`},
		{id: "lake", ago: 3 * hours, from: leo, subject: "Photos from the lake", answered: true,
			attach: []attachment{{"image/jpeg", "lake.jpg", jpegPhoto()}}, text: `
Hey Sam,

Here's the best one from the weekend: the lake just after sunset. The kids refused to get out of the water until it was nearly dark.

The rest are in the shared album.

Leo`},
		{id: "lake-reply", folder: "Sent", ago: 2 * hours, to: []person{leo}, subject: "Re: Photos from the lake", re: []string{"lake"}, text: `
Beautiful! Can I have a print of that one for the hallway?

Sam`},
		{id: "renee", ago: 2*days + 4*hours, from: renee, subject: "Félicitations pour le nouveau poste ! À bientôt à Montréal", latin1: true, text: `
Salut Sam !

Félicitations pour le nouveau poste, c'est une très bonne nouvelle. Léa m'a dit que tu commences déjà la semaine prochaine.

Si tu passes par Montréal cet été, viens dîner à la maison : je te ferai la tarte au sucre de ma grand-mère, et on ira voir les feux d'artifice sur le fleuve.

Je t'embrasse,
Renée`},
		{id: "lisbon-1", ago: 5 * days, from: jonas, subject: lisbon, answered: true, text: `
Hi Sam,

Remember we said we'd do a trip this spring? Flights to Lisbon are cheap in May. Four days, walking, pastéis de nata, maybe a day in Sintra.

Are you in?

Jonas`},
		{id: "lisbon-2", folder: "Sent", ago: 4*days + 2*hours, to: []person{jonas}, subject: "Re: " + lisbon, re: []string{"lisbon-1"}, text: `
I'm in! Any weekend except the first one works for me.

> Four days, walking, pastéis de nata, maybe a day in Sintra.`},
		{id: "lisbon-3", ago: 2 * days, from: jonas, subject: "Re: " + lisbon, re: []string{"lisbon-1", "lisbon-2"}, flagged: true, text: `
Great! Two options for the third weekend of May:

- Thursday morning out, Sunday evening back: cheaper, but a 6am flight
- Friday noon out, Monday evening back: nicer times, 40 more each

I'd go for Friday. Shall I book both of us?

Jonas`},
		{id: "landlady", ago: 6 * hours, from: landlady, subject: "Boiler service next Tuesday", answered: true, text: `
Dear Sam,

The engineer will come on Tuesday between 8 and 12 for the yearly boiler service. If you can't be home, could you leave the key with the neighbours at number 14?

Kind regards,
A. Patel`},
		{id: "landlady-reply", folder: "Sent", ago: 5 * hours, to: []person{landlady}, subject: "Re: Boiler service next Tuesday", re: []string{"landlady"}, text: `
Dear Mrs Patel, no problem, I'll be working from home that day. Best wishes, Sam`},
		{id: "grandpa", ago: 1*days + 20*hours, from: grandpa, subject: "the garden", text: `
Dear Sam

The tomatoes are in and the beans are already climbing up the fence. Your grandmother says the roses are the best in the street this year and she is right.

Come and see them soon. Bring the camera.

Grandpa`},
		{id: "shipped", ago: 1 * days, from: shop, subject: "Your order #4821-7730 has shipped", text: `
Good news: your order is on its way!

- 1 x Trail running shoes, size 43
- 2 x Merino socks

Carrier: Parcel Tracking, tracking number PT 0000 4821 7730
Estimated delivery: tomorrow

Track your parcel: https://parcels.example.net/track/PT000048217730`},
		{id: "out-for-delivery", ago: 5 * hours, from: parcels, subject: "Your parcel is out for delivery", text: `
Your parcel PT 0000 4821 7730 from Example Outdoor Shop is out for delivery today between 11:00 and 15:00.

Not home? Choose a safe place: https://parcels.example.net/track/PT000048217730`},
		{id: "delivered", ago: 55 * mins, from: parcels, subject: "Delivered: your parcel PT 0000 4821 7730", unread: true, text: `
Your parcel was delivered at 13:12 and handed to a neighbour (number 14).`},
		{id: "bank", ago: 1*days + 6*hours, from: bank, subject: "Your monthly statement is ready", unread: true, text: `
Dear customer,

Your statement for the account ending in 0000 is now available in online banking.

For your security we never include statements or links to sign in in our emails. Open the Example Bank app or type the address of our website yourself.

Example Bank
This is an automated message; please do not reply.`},
		{id: "reader", ago: 14 * hours, from: reader, subject: "The Weekend Reader: slow bread, fast bikes", unread: true, alt: true,
			headers: []string{"List-Unsubscribe: <https://reader.example.org/unsubscribe>"}, text: `
Good morning! This weekend's three reads:

- Slow bread: why a 48-hour dough is worth the wait, and how to fit it around a working week.
- Fast bikes: the commuters who race the tram every morning, and the tram driver who waves at them.
- The last lighthouse keeper on the coast, in his own words.

Plus: a crossword, and the week's best letters.

Read it all: https://reader.example.org/issues/214

You get this because you signed up for The Weekend Reader. Unsubscribe: https://reader.example.org/unsubscribe`},
		{id: "garden-club", ago: 3*days + 7*hours, from: garden, subject: "What to sow this week: radishes, rocket and sweet peas", alt: true, text: `
Hello gardeners,

The soil is warming up. This week, sow:

- radishes, every two weeks for a steady supply
- rocket, in a shady spot so it doesn't bolt
- sweet peas, against a fence or a wigwam of canes

Question of the week: "Why are my seedlings leggy?" Usually not enough light. Move them to the brightest windowsill and turn them daily.

Happy growing! https://garden.example.org/this-week`},
		{id: "dentist", ago: 3 * days, from: dental, subject: "Appointment reminder: Tuesday 09:30", text: `
This is a reminder of your check-up at Riverside Dental on Tuesday at 09:30.

Need to change it? Call us or reply to this email at least 24 hours before.`},
		{id: "library", ago: 2*days + 1*hours, from: library, subject: "2 items due in 3 days", text: `
These items are due back soon:

- The Overstory (due in 3 days)
- A Field Guide to Clouds (due in 3 days)

Renew online: https://library.example.org/account`},
		{id: "run", ago: 4 * days, from: running, subject: "Saturday long run: 18 km, meet at the bridge", text: `
Morning runners!

Saturday's long run is 18 km along the river, easy pace. Meet at the old bridge at 8:00. Coffee afterwards at the boathouse.

See you there!`},
		{id: "signin", ago: 2*days + 9*hours, from: exampleID, subject: "New sign-in to your account", text: `
We noticed a new sign-in to your Example ID account.

Device: Firefox on Linux
Location: near your usual location

If this was you, you don't need to do anything. If not, change your password in your account settings.`},
		{id: "photobook", ago: 18 * hours, from: photos, subject: "Your photo book is ready to print", alt: true, text: `
Hi Sam,

Your photo book "Summer at the lake" is ready. Check the preview and we'll print it within two days.

Preview: https://prints.example.net/books/lake-summer`},

		// Archive.
		{id: "recipe", folder: "Archive", ago: 6 * days, from: mum, subject: "Grandma's lemon cake recipe", text: `
As promised:

- 225 g butter, 225 g sugar, 4 eggs, 225 g self-raising flour
- zest of 2 lemons
- drizzle: juice of 1 1/2 lemons and 85 g sugar

Bake 45 minutes at 180 degrees. Pour the drizzle over while the cake is still warm.

Mum x`},
		{id: "dad-present", folder: "Archive", ago: 12 * days, from: leo, subject: "Re: Birthday present for Dad", re: []string{"dad-present-0"}, text: `
The bird feeder it is. I'll order it, you get the card?

Leo`},
		{id: "concert", folder: "Archive", ago: 15 * days, from: amira, subject: "Concert tickets!", text: `
Got them! Two tickets for the jazz night in the park, three weeks from Friday. You owe me a drink.

Amira`},
		{id: "run-old", folder: "Archive", ago: 11 * days, from: running, subject: "Results: Riverside 10K", text: `
Congratulations to everyone who ran the Riverside 10K! Results and photos: https://running.example.org/results`},

		// Receipts, a folder of the user's own with no special use.
		{id: "order", folder: "Receipts", ago: 3 * days, from: shop, subject: "Order confirmation #4821-7730", text: `
Thank you for your order!

- 1 x Trail running shoes, size 43: 89.00
- 2 x Merino socks: 2 x 14.50

Total paid: 118.00 (card ending 0000)`},
		{id: "power", folder: "Receipts", ago: 8 * days, from: bank, subject: "Direct debit paid: Example Energy", text: `
Your direct debit of 54.20 to Example Energy was paid today from the account ending in 0000.`},
		{id: "book-receipt", folder: "Receipts", ago: 13 * days, from: books, subject: "Your receipt from Example Books", text: `
Thanks for shopping with us.

- A Field Guide to Clouds, paperback: 12.99

Paid by card ending 0000.`},

		// Trash.
		{id: "sale", folder: "Trash", ago: 4 * days, from: shop, subject: "Final hours: 30% off everything", alt: true, text: `
Final hours! Take 30% off everything, including the new season's jackets.

Shop now: https://shop.example.com/sale`},
		{id: "miss-you", folder: "Trash", ago: 9 * days, from: photos, subject: "We miss you! Here's 10% off your next print", alt: true, text: `
It's been a while! Here's 10% off your next order with the code HELLO10.

https://prints.example.net/`},
	}
}

package unsubscribe

import (
	"fmt"
	"strings"
)

// Kind is what unsubscribing will do.
type Kind string

const (
	KindOneClick Kind = "one-click" // POST to an https URI (RFC 8058)
	KindMailto   Kind = "mailto"    // a message through the account's outbox
	KindShow     Kind = "show"      // nothing: the links are shown as text
)

// Plan is what `U` offers, decided before anything is done: Describe is
// shown, and only `y` carries it out.
type Plan struct {
	Kind   Kind
	URI    string // the one-click URI
	Mailto Mailto // KindMailto's message
	Links  []string
	// Why one-click is not offered ("" when it is), shown beside the
	// mailto or the links.
	Why string
}

// Decide picks the one thing unsubscribing will do with info. One-click
// only where RFC 8058 and DKIM both hold; else a mailto: it can parse;
// else nothing but the links as text, whatever their scheme.
func Decide(info Info) Plan {
	if len(info.Unsafe) > 0 {
		var links []string
		for _, o := range info.Options {
			links = append(links, o.URI)
		}
		return Plan{Kind: KindShow, Links: links, Why: "no one-click, no mailto: the header cannot be trusted: " + strings.Join(info.Unsafe, "; ")}
	}
	why := notOneClick(info)
	if why == "" {
		for _, o := range info.Options {
			if o.Scheme == "https" {
				return Plan{Kind: KindOneClick, URI: o.URI}
			}
		}
	}
	var links []string
	var mailtoErr error
	for _, o := range info.Options {
		links = append(links, o.URI)
		if o.Scheme != "mailto" {
			continue
		}
		m, err := ParseMailto(o.URI)
		if err == nil {
			return Plan{Kind: KindMailto, Mailto: m, Why: why}
		}
		mailtoErr = err
	}
	if mailtoErr != nil {
		why += "; " + mailtoErr.Error()
	}
	if len(info.Problems) > 0 {
		why += "; " + strings.Join(info.Problems, "; ")
	}
	return Plan{Kind: KindShow, Links: links, Why: why}
}

// notOneClick says why info allows no one-click POST ("" when it does).
func notOneClick(info Info) string {
	https := false
	for _, o := range info.Options {
		https = https || o.Scheme == "https"
	}
	switch {
	case len(info.Options) == 0:
		return "the message has no List-Unsubscribe URI"
	case !info.OneClickHeader:
		return "no one-click: the message has no List-Unsubscribe-Post: " + OneClickValue
	case !https:
		return "no one-click: the URI is not https"
	case info.DKIM.Result != DKIMPass:
		reason := info.DKIM.Reason
		if reason == "" {
			reason = "DKIM " + info.DKIM.Result
		}
		return "no one-click: " + reason
	}
	return ""
}

// Describe is exactly what `y` will do, in one line.
func (p Plan) Describe(from string) string {
	switch p.Kind {
	case KindOneClick:
		return fmt.Sprintf("unsubscribe: POST %q (form-encoded, no cookies) to %s", OneClickValue, p.URI)
	case KindMailto:
		s := fmt.Sprintf("unsubscribe: send a message from %s to %s, subject %q", from, p.Mailto.To, p.Mailto.Subject)
		if p.Mailto.Body != "" {
			s += fmt.Sprintf(", body %q", p.Mailto.Body)
		}
		if len(p.Mailto.Dropped) > 0 {
			s += " (left out: " + strings.Join(p.Mailto.Dropped, ", ") + ")"
		}
		if p.Why != "" {
			s += "; " + p.Why
		}
		return s
	}
	if len(p.Links) == 0 {
		return "unsubscribe: nothing to do: " + p.Why
	}
	return "unsubscribe: not opened, open it yourself if you trust it: " + strings.Join(p.Links, " ") + " (" + p.Why + ")"
}

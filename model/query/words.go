package query

import "strings"

// Words are what a server's text search is asked for when the local
// store cannot answer (a folder it holds in part, an account it holds
// nothing of): the words and phrases of n outside any negation, each as
// one string of its tokens. A server's search knows nothing of fields,
// flags or dates, so what it brings back is checked again with ServerDoc.
func Words(n Node) []string {
	var out []string
	var walk func(Node)
	walk = func(n Node) {
		switch n := n.(type) {
		case Text:
			if len(n.Tokens) > 0 {
				out = append(out, strings.Join(n.Tokens, " "))
			}
		case And:
			for _, k := range n.Nodes {
				walk(k)
			}
		case Or:
			for _, k := range n.Nodes {
				walk(k)
			}
		}
	}
	walk(n)
	return out
}

// ServerDoc is a message a server's search found for words, as Match
// sees it: its envelope, and a body that holds the words (the server
// said they are in it, or in its sender or subject). Fields, flags,
// dates and places are checked exactly; a negated word in a body it
// cannot see is not.
func ServerDoc(d Doc, words []string) Doc {
	text := make(map[Field]string, len(d.Text)+1)
	for f, s := range d.Text {
		text[f] = s
	}
	text[Body] = strings.Join(words, "\n")
	d.Text = text
	return d
}

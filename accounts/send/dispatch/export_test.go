package dispatch

// SetSeams sets what a worker does after each look and what the watch
// does as it starts, for one test; restore puts them back.
func SetSeams(afterPass, watchStart func()) (restore func()) {
	p, w := passed, watching
	passed, watching = afterPass, watchStart
	return func() { passed, watching = p, w }
}

package conn

// lastGeneration returns a channel closed when generation id has fully
// ended (its watcher returned). Test-only.
func (a *Adapter) lastGeneration(id uint64) <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if g, ok := a.gens[id]; ok {
		return g.ended
	}
	ch := make(chan struct{})
	close(ch)
	return ch
}

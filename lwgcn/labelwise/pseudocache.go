package labelwise

import (
	"fmt"
	"sync"
)

// PseudoCache keeps f_P's pseudo-labels for reuse by other runs of the same
// split and seed on the same nodes: f_P (an MLP) ignores the edges, so the
// homophily sweep's graphs, which Algorithm 2 builds on the base's nodes,
// features, labels and splits, all get the same pseudo-labels, as do the
// ablations and the depths of one dataset. A cached entry is the outcome of
// training f_P once; reusing it gives the run exactly what training f_P
// again would (same inputs, seed and backend). The key covers everything
// f_P reads: its settings, the features, labels and split (and the edges
// for a GCN f_P), the seed and the backend. It is safe for concurrent use.
type PseudoCache struct {
	mu      sync.Mutex
	entries map[string]pseudoEntry
	hits    int
}

type pseudoEntry struct {
	labels              []int32
	testAcc, msPerEpoch float64
}

// NewPseudoCache returns an empty cache.
func NewPseudoCache() *PseudoCache { return &PseudoCache{entries: map[string]pseudoEntry{}} }

// Hits returns how many f_P trainings the cache saved.
func (c *PseudoCache) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

func (c *PseudoCache) get(key string) (pseudoEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if ok {
		c.hits++
	}
	return e, ok
}

func (c *PseudoCache) put(key string, e pseudoEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = e
}

// pseudoKey is the cache key of f_P on split and seed: the graph's
// fingerprint (graph.Fingerprint), f_P's settings, split, seed, backend.
func (r *Runner) pseudoKey(split int, seed int64) string {
	if r.fingerprint == "" {
		r.fingerprint = r.mg.Fingerprint(r.cfg.Pseudo == PseudoGCN)
	}
	pm, epochs := r.cfg.pseudoModel()
	return fmt.Sprintf("%s|%#v|epochs=%d|lr=%v|wd=%v|split=%d|seed=%d|backend=%s", r.fingerprint, pm, epochs,
		r.cfg.PseudoLR, r.cfg.PseudoWD, split, seed, r.backend)
}

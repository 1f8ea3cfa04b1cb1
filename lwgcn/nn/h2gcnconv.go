package nn

import (
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// H2GCNConv is one round of H2GCN's neighbourhood aggregation (Zhu et al.,
// NeurIPS 2020, "Beyond Homophily in Graph Neural Networks: Current
// Limitations and Effective Designs"), with ego- and neighbour-embedding
// separation and higher-order neighbourhoods:
//
//	r_k = Â1 r_{k-1} ‖ Â2 r_{k-1}
//
// Â1 and Â2 are the normalised 1-hop and exact 2-hop adjacencies without
// self loops (H2GCNNeighborhoods); the node's own embedding is not mixed in
// (it enters the final representation through r_0). There are no weights
// and no non-linearity, as in the official code (layer "G" followed by
// "V": stack the hops, flatten). Shapes: r_{k-1} [N, H], result [N, 2H].
func H2GCNConv(h *Node, a1, a2 sparse.Propagator) *Node {
	return Concatenate([]*Node{a1.Mul(h), a2.Mul(h)}, 1)
}

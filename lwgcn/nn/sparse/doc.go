// Package sparse is lwgcn's sparse engine, written with GoMLX: sparse
// matrices on the host (SparseMatrix, the binary adjacency builders), their
// tensors among a model's inputs (Set, SetAuto, SetSorted) and, inside a
// graph, the products with them (SpMat from FromNodes: Mul, MulRuns,
// MulWeighted, the sorted-padded view; AutoSpMat) and the in-edge softmax
// of attention layers. It knows nothing of layers or models: it writes to
// and reads from any HostInputs / GraphInputs (nn.Inputs and nn.Nodes).
//
// # Products
//
// Every sparse product (sparse features times a weight matrix, normalised
// adjacency times node features) is a SparseMatrix (host) / SpMat (graph).
// Small matrices (DenseMaxElements) are also kept dense: narrow products
// (DenseMaxWidth columns) or dense-enough matrices (DenseMinDensity) use one
// Dot, and the gradient another with a stored transpose; wider products use
// the ELL layout below.
// Larger ones use a bucketed ELL layout built on the host: rows grouped by
// their number of entries, each bucket a [K, rows] table of column indices
// stored in chunks of ELLChunkSlots slots (and whole, for narrow products);
// the product gathers the rows of the dense operand into one [K, rows, H]
// block per chunk (small enough to stay in cache), scales them by the
// entries' values when there are any (pre-arranged per slot on the host),
// and sums over K — a SIMD reduction of the Go backend — then puts the rows
// back in order. No scatter is used: on GoMLX's Go backend a scatter-sum
// costs about 1.5x a gather per row, and the sum over the leading axis is
// vectorised. Row and column scales (GCN normalisation) are applied to the
// N x H matrices, never per entry. The gradient (Aᵀ·v) is the same
// computation on the ELL layout of Aᵀ, attached through GoMLX's alternate
// gradient of fused ops, so that the forward pass costs exactly the
// product. Optionally (DenseColumnMaxThreads, off by default: it sums in
// another order, so runs would depend on the thread count), the hub columns
// (or rows) of a large matrix, the few nodes most entries point to, are
// multiplied as one dense block instead (DenseColumnRatio; Squirrel). Deep models multiplying one matrix
// many times (GCNII) keep their node matrices in the matrix's bucket order
// with a zero row appended (SetSorted, SpMat.SortedPadded), which saves two
// passes per product.
//
// # Forms per backend
//
// That layout pays on the pure-Go backend only. On XLA its many small
// gathers, concatenations and position gathers multiply ops, kernel
// launches and compile time, so Mul and MulRuns choose their Form by
// backend and size (FormFor): the ELL chunks on pure Go; on XLA one
// dense matrix product up to XLADenseMaxNodes² elements, beyond it one
// gather of x's rows per entry and one sorted scatter-sum into the rows.
// The forms are tested equal to each other and to the host's product
// (values and gradients) on both backends (lwgcn/parity). The attention
// products (MulWeighted, RowSlots, InEdgeSoftmax) keep the ELL layout on
// every backend. Inside a While loop's body (a layer stack run as a loop)
// a matrix is a LoopMat: its nodes travel in the loop's state and its
// products are the segment form's, without gradient.
//
// # Per-entry values
//
// Attention-like layers compute a value per entry (a score), normalise it
// over each row (softmax) and multiply by it. In the entry order ([NNZ]
// vectors: InEdgeSoftmax, MulWeighted) each step gathers or scatters NNZ
// narrow rows, which the Go backend pays per row. RowSlots keeps such
// values in the ELL layout of A instead ([K, R, W] per bucket): a row's
// softmax is a reduction over K, and the weighted product multiplies the
// gathered block by the values as they are (BM-GCN, SuperGAT; batched GAT,
// whose edge-order rows are already R·K values wide, measured slower).
package sparse

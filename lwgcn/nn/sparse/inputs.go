package sparse

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// HostInputs is where Set and its variants add a matrix's tensors, on the
// host: nn.Inputs implements it.
type HostInputs interface {
	SetInt32(name string, data []int32, dims ...int)
	SetFloat(name string, data []float32, dims ...int)
	SetMeta(name string, v int)
	// SetHost and Host keep a host-side object (the matrix itself, for
	// SetSorted) under a name.
	SetHost(name string, v any)
	Host(name string) any
	// BackendName names the backend the graph will be compiled for
	// (compute.Backend.String), so that Set adds only the layouts its
	// products read; "" when not known (every layout).
	BackendName() string
}

// GraphInputs are the named inputs inside a graph-building function, where
// FromNodes and its variants read a matrix back: nn.Nodes implements it.
type GraphInputs interface {
	// Get panics (graph building) when name is absent; Maybe returns nil.
	Get(name string) *Node
	Maybe(name string) *Node
	// Meta panics when name is absent; MetaOr returns def.
	Meta(name string) int
	MetaOr(name string, def int) int
}

func panicf(format string, args ...any) { exceptions.Panicf(format, args...) }

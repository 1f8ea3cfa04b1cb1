// Package nntest holds the helpers shared by the tests of lwgcn/nn,
// lwgcn/nn/sparse and lwgcn/models: a Harness that runs a layer-building
// function on fixed inputs and checks its gradients against finite
// differences, a tiny test graph with its float64 inputs, and small dense
// float64 references (products, powers, inverses) to compare layers with.
// It is internal: only the library's own tests import it.
package nntest

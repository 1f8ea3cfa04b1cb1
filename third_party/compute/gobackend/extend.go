// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// Extension points of the Go backend, for packages that add their own kernels
// (fused ops, faster executors) without forking the backend. They expose the
// mechanisms the backend's own op packages already use: node executors by
// priority (SetNodeExecutor) and graph transformations run at compile time
// (RegisterTransformation). Both must be registered from init functions.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/ops"
)

type (
	// Backend is the Go backend (its Workers pool runs parallel work).
	Backend = gobackend.Backend
	// Builder holds the functions of a computation being compiled.
	Builder = gobackend.Builder
	// Function is one function of a computation (its Nodes in DAG order, Outputs).
	Function = gobackend.Function
	// Node is one operation of a Function.
	Node = gobackend.Node
	// Buffer is a tensor's storage on the Go backend (Flat holds a slice of the dtype).
	Buffer = gobackend.Buffer
	// NodeExecutor executes one node; it returns ErrFallback to let a lower-priority executor run.
	NodeExecutor = gobackend.NodeExecutor
	// MultiOutputsNodeExecutor executes a node with several outputs (e.g. RNGBitGenerator).
	MultiOutputsNodeExecutor = func(backend *Backend, node *Node, inputs []*Buffer, inputsOwned []bool) ([]*Buffer, error)
	// GraphTransformation rewrites a Builder's graph at compile time.
	GraphTransformation = gobackend.GraphTransformation
	// RegisterPriority orders executors of one op type: the highest priority runs first.
	RegisterPriority = gobackend.RegisterPriority
	// ReduceConfig is the Data of reduce nodes (ReduceSum, ReduceMax, ...): the reduced axes.
	ReduceConfig = ops.ReduceConfig
	// GatherParams are a Gather node's parameters (see GatherParamsOf).
	GatherParams = ops.GatherParams
	// ScatterParams are a ScatterSum, ScatterMax or ScatterMin node's parameters (see ScatterParamsOf).
	ScatterParams = ops.ScatterParams
)

// Executor priorities.
const (
	PriorityGeneric = gobackend.PriorityGeneric
	PriorityTyped   = gobackend.PriorityTyped
	PriorityArch    = gobackend.PriorityArch
	PriorityUser    = gobackend.PriorityUser
)

// ErrFallback is returned by a NodeExecutor that does not handle a node, so that the next executor runs.
var ErrFallback = gobackend.ErrFallback

// SetNodeExecutor registers executor for opType at priority (see RegisterPriority).
func SetNodeExecutor(opType compute.OpType, priority RegisterPriority, executor NodeExecutor) {
	gobackend.SetNodeExecutor(opType, priority, executor)
}

// RegisterTransformation registers a graph transformation run when a computation is compiled, in
// decreasing order of priority (the backend's own passes use 100 and above).
func RegisterTransformation(priority int, transformation GraphTransformation) {
	gobackend.RegisterTransformation(priority, transformation)
}

// MultiOutputsNodeExecutorOf returns the executor of a multi-output op type (nil if none).
func MultiOutputsNodeExecutorOf(opType compute.OpType) MultiOutputsNodeExecutor {
	return gobackend.MultiOutputsNodeExecutors[opType]
}

// SetMultiOutputsNodeExecutor replaces the executor of a multi-output op type.
func SetMultiOutputsNodeExecutor(opType compute.OpType, executor MultiOutputsNodeExecutor) {
	gobackend.MultiOutputsNodeExecutors[opType] = executor
}

// GatherParamsOf returns a Gather node's parameters, or false if node is not a Gather.
func GatherParamsOf(node *Node) (GatherParams, bool) { return ops.GatherParamsOf(node) }

// ScatterParamsOf returns a ScatterSum, ScatterMax or ScatterMin node's parameters, or false if node is
// not one.
func ScatterParamsOf(node *Node) (ScatterParams, bool) { return ops.ScatterParamsOf(node) }

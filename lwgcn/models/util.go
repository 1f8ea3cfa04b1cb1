package models

import (
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func panicf(format string, args ...any) { exceptions.Panicf(format, args...) }

// numClasses reads the "num_classes" metadata.
func numClasses(in *nn.Nodes) int { return in.Meta(nn.InputNumClasses) }

// Every model is an nn.Model.
var _ = []nn.Model{MLP{}, GCN{}, GAT{}, GCNII{}, MixHop{}, H2GCN{}, GPRGNN{}, FAGCN{}, SuperGAT{}, SimPGCN{},
	BMGCN{}, GloGNN{}, LINKX{}, ASGC{}}

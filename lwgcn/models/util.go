package models

import (
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func panicf(format string, args ...any) { exceptions.Panicf(format, args...) }

// numClasses reads the "num_classes" metadata.
func numClasses(in *nn.Nodes) int { return in.Meta(nn.InputNumClasses) }

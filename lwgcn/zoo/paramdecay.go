package zoo

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// trainableParams returns the trainable model weights (nn.Param variables)
// that g uses.
func trainableParams(scope *model.Scope, g *Graph) []*model.Variable {
	store := scope.Store()
	var vs []*model.Variable
	for v := range store.IterVariables() {
		if v.Trainable && v.InUseByGraph(g) && nn.IsParam(store, v) {
			vs = append(vs, v)
		}
	}
	return vs
}

// offsetDecayTerm returns Σ_v wd·c_v·Σ δ_v over the trainable
// nn.OffsetParam weights (c + δ) that g uses (every run's: the term's
// gradient on each run's δ is that run's), or nil when there are none.
// Added to a loss that coupled Adam (weight decay wd) minimises, it makes the
// decay gradient wd·(c + δ) — PyTorch's, on the parameter itself — where
// Adam alone would add wd·δ.
func offsetDecayTerm(scope *model.Scope, g *Graph, wd float64) *Node {
	if wd == 0 {
		return nil
	}
	var sum *Node
	for _, v := range trainableParams(scope, g) {
		c, ok := nn.ParamOffset(scope.Store(), v)
		if !ok || c == 0 {
			continue
		}
		term := MulScalar(ReduceAllSum(v.NodeValue(g)), wd*c)
		if sum == nil {
			sum = term
		} else {
			sum = Add(sum, term)
		}
	}
	return sum
}

// addOffsetDecay returns loss plus offsetDecayTerm (loss when none).
func addOffsetDecay(scope *model.Scope, g *Graph, loss *Node, wd float64) *Node {
	if t := offsetDecayTerm(scope, g, wd); t != nil {
		return Add(loss, ConvertDType(t, loss.DType()))
	}
	return loss
}

// offsetExactEpoch is train.StandardEpoch with the decay of nn.OffsetParam
// weights applied to their effective values (offsetDecayTerm); the reported
// training loss is the NLL alone.
func offsetExactEpoch(m nn.Model, wd float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
		labels := in.Get(nn.InputLabels)
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		loss := train.MaskedNLL(logp, labels, in.Get(nn.InputTrainMask))
		opt.Step(scope, g, addOffsetDecay(scope, g, train.Total(loss), wd))
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval}
	}
}

// adamWEpoch is one step of PyTorch's AdamW (torch.optim.AdamW, the LINKX
// code's default optimizer): opt must be Adam without weight decay; after
// its step every trainable weight p also loses lr·wd·p_before (AdamW
// multiplies p by 1 - lr·wd before the Adam update; the gradient is taken at
// p_before either way), with p the effective value c + δ of OffsetParams.
func adamWEpoch(m nn.Model, lr, wd float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
		labels := in.Get(nn.InputLabels)
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		loss := train.MaskedNLL(logp, labels, in.Get(nn.InputTrainMask))
		vars := trainableParams(scope, g)
		before := make([]*Node, len(vars))
		for i, v := range vars {
			before[i] = v.NodeValue(g)
		}
		opt.Step(scope, g, train.Total(loss))
		if wd != 0 {
			for i, v := range vars {
				p := before[i]
				if c, ok := nn.ParamOffset(scope.Store(), v); ok && c != 0 {
					p = AddScalar(p, c)
				}
				v.SetNodeValue(Sub(v.NodeValue(g), MulScalar(p, lr*wd)))
			}
		}
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval}
	}
}

package theory

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// DiscriminabilityOptions configure Discriminability.
type DiscriminabilityOptions struct {
	// ProjectionDim is the width of the random Gaussian projection of the raw
	// features (0: DefaultProjectionDim; negative: no projection). Features
	// no wider than this are used as they are.
	ProjectionDim int
	// Seed fixes the projection.
	Seed uint64
	// SelfLoops makes the GCN average include the node itself (A+I).
	SelfLoops bool
	// Labels are the labels used to group neighbours in the label-wise
	// aggregation: nil uses the graph's true labels for every node (the
	// setting of Theorem 2, an oracle: it reveals test nodes' labels to their
	// neighbours); PseudoLabels gives LW-GCN's non-oracle setting.
	Labels []int32
	// Split indexes g.Splits() for the classifiers.
	Split int
	// Classifier configures the logistic regression.
	Classifier ClassifierOptions
}

// RepresentationReport measures one representation.
type RepresentationReport struct {
	Name string
	Dim  int
	// Fisher are per-dimension Fisher ratios over all labelled nodes.
	Fisher Fisher
	// Logistic is the accuracy of TrainLogistic on the split.
	Logistic Accuracy
	// NearestMean is the accuracy of NearestClassMean on the split.
	NearestMean Accuracy
}

// DiscriminabilityReport compares the raw (projected) features, their GCN
// average and their label-wise aggregation CONCAT(x_v, a_{v,1..C}).
type DiscriminabilityReport struct {
	ProjectionDim int // columns of x after projection
	OracleLabels  bool
	Raw           RepresentationReport
	GCN           RepresentationReport
	// LabelWise.Fisher.Blocks[0] is the self block, Blocks[k+1] the a_{.,k}
	// block (Theorem 2's per-class view).
	LabelWise RepresentationReport
}

// Discriminability measures how separable the classes of g are after GCN and
// after label-wise aggregation, by Fisher ratios and linear classifiers. g
// needs features, labels and at least opts.Split+1 splits. Aggregation runs
// over in-neighbours as stored (symmetrise g first for undirected graphs).
func Discriminability(g *graph.Graph, opts DiscriminabilityOptions) (DiscriminabilityReport, error) {
	x, split, err := probeInput(g, opts)
	if err != nil {
		return DiscriminabilityReport{}, err
	}
	labels, c := g.Labels(), g.NumClasses()
	agg := opts.Labels
	rep := DiscriminabilityReport{ProjectionDim: x.Cols, OracleLabels: agg == nil}
	if agg == nil {
		agg = labels
	} else if len(agg) != g.NumNodes() {
		return rep, fmt.Errorf("theory: Discriminability: %d aggregation labels for %d nodes", len(agg), g.NumNodes())
	}
	gcn, err := MeanAggregate(g, x, opts.SelfLoops)
	if err != nil {
		return rep, err
	}
	lw, err := LabelWiseAggregate(g, x, agg, c)
	if err != nil {
		return rep, err
	}
	measure := func(name string, m Matrix, block int) (RepresentationReport, error) {
		r := RepresentationReport{Name: name, Dim: m.Cols}
		var err error
		if r.Fisher, err = FisherRatios(m, labels, c, nil, block); err != nil {
			return r, err
		}
		if _, r.Logistic, err = TrainLogistic(m, labels, c, split, opts.Classifier); err != nil {
			return r, fmt.Errorf("theory: %s representation: %w", name, err)
		}
		if r.NearestMean, err = NearestClassMean(m, labels, c, split); err != nil {
			return r, err
		}
		return r, nil
	}
	if rep.Raw, err = measure("raw", x, 0); err != nil {
		return rep, err
	}
	if rep.GCN, err = measure("gcn", gcn, 0); err != nil {
		return rep, err
	}
	rep.LabelWise, err = measure("labelwise", lw, x.Cols)
	return rep, err
}

// PseudoLabels returns LW-GCN-style labels for the label-wise aggregation
// without an oracle: the true label on training nodes of split opts.Split and
// the prediction of a logistic regression on the (projected) raw features
// elsewhere.
func PseudoLabels(g *graph.Graph, opts DiscriminabilityOptions) ([]int32, error) {
	x, split, err := probeInput(g, opts)
	if err != nil {
		return nil, err
	}
	m, _, err := TrainLogistic(x, g.Labels(), g.NumClasses(), split, opts.Classifier)
	if err != nil {
		return nil, err
	}
	pred := m.Predict(x)
	for _, v := range split.Train {
		if y := g.Labels()[v]; y >= 0 {
			pred[v] = y
		}
	}
	return pred, nil
}

func probeInput(g *graph.Graph, opts DiscriminabilityOptions) (Matrix, graph.Split, error) {
	if g == nil {
		return Matrix{}, graph.Split{}, fmt.Errorf("theory: nil graph")
	}
	if g.Features() == nil {
		return Matrix{}, graph.Split{}, fmt.Errorf("theory: graph %q has no features", g.Name())
	}
	if g.Labels() == nil || g.NumClasses() < 2 {
		return Matrix{}, graph.Split{}, fmt.Errorf("theory: graph %q needs labels of at least 2 classes", g.Name())
	}
	if opts.Split < 0 || opts.Split >= len(g.Splits()) {
		return Matrix{}, graph.Split{}, fmt.Errorf("theory: graph %q has %d splits, DiscriminabilityOptions.Split = %d",
			g.Name(), len(g.Splits()), opts.Split)
	}
	dim := opts.ProjectionDim
	if dim == 0 {
		dim = DefaultProjectionDim
	}
	x, err := ProjectFeatures(g.Features(), dim, opts.Seed)
	if err != nil {
		return Matrix{}, graph.Split{}, err
	}
	return x, g.Splits()[opts.Split], nil
}

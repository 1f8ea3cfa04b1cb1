package theory

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Defaults of ClassifierOptions.
const (
	// DefaultEpochs is the number of full-batch gradient steps.
	DefaultEpochs = 200
	// DefaultL2 is the weight decay of the logistic regression (bias excluded).
	DefaultL2 = 1e-4
	// DefaultEvalEvery is how often (in steps) validation accuracy is checked
	// to keep the best weights.
	DefaultEvalEvery = 10
)

// ClassifierOptions configure TrainLogistic; zero fields take the defaults.
type ClassifierOptions struct {
	Epochs int
	// L2 is the weight decay; a negative value switches it off.
	L2        float64
	EvalEvery int
}

func (o ClassifierOptions) withDefaults() ClassifierOptions {
	if o.Epochs <= 0 {
		o.Epochs = DefaultEpochs
	}
	switch {
	case o.L2 == 0:
		o.L2 = DefaultL2
	case o.L2 < 0:
		o.L2 = 0
	}
	if o.EvalEvery <= 0 {
		o.EvalEvery = DefaultEvalEvery
	}
	return o
}

// Accuracy is the fraction of correctly classified nodes of each split set
// (NaN for an empty set).
type Accuracy struct {
	Train, Val, Test float64
}

// LogisticModel is a trained multinomial logistic regression on standardised
// inputs.
type LogisticModel struct {
	NumClasses int
	// Mean and Scale standardise each input column (train statistics).
	Mean, Scale []float64
	// W is C x (Cols+1): row k holds class k's weights, its last entry the
	// bias.
	W Matrix
}

// Predict returns the argmax class of every row of x.
func (m *LogisticModel) Predict(x Matrix) []int32 {
	out := make([]int32, x.Rows)
	logits := make([]float64, m.NumClasses)
	z := make([]float64, x.Cols)
	for r := range x.Rows {
		m.standardise(x.Row(r), z)
		m.logits(z, logits)
		out[r] = int32(argmax(logits))
	}
	return out
}

func (m *LogisticModel) standardise(row, z []float64) {
	for t, v := range row {
		z[t] = (v - m.Mean[t]) * m.Scale[t]
	}
}

func (m *LogisticModel) logits(z, out []float64) {
	d := len(z)
	for k := range out {
		w := m.W.Row(k)
		out[k] = dot(w[:d], z) + w[d]
	}
}

// dot is a 4-way unrolled inner product (independent accumulators let the
// CPU overlap the multiplies).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds alpha*x to y.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += alpha * x[i]
		y[i+1] += alpha * x[i+1]
		y[i+2] += alpha * x[i+2]
		y[i+3] += alpha * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

func argmax(x []float64) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// TrainLogistic fits a multinomial logistic regression on the split's
// training rows by full-batch Nesterov-accelerated gradient descent with the
// safe step 1/L (L = lambda_max(X'X/n)/2 + L2, from power iteration), keeping
// the weights with the best validation accuracy (checked every EvalEvery
// steps), and reports train/validation/test accuracy.
func TrainLogistic(x Matrix, labels []int32, numClasses int, split graph.Split, opts ClassifierOptions) (*LogisticModel, Accuracy, error) {
	opts = opts.withDefaults()
	if err := checkClassifierInput(x, labels, numClasses, split); err != nil {
		return nil, Accuracy{}, err
	}
	train := labelled(split.Train, labels, numClasses)
	if len(train) == 0 {
		return nil, Accuracy{}, fmt.Errorf("theory: TrainLogistic: no labelled training node")
	}
	d, c := x.Cols, numClasses
	m := &LogisticModel{NumClasses: c, Mean: make([]float64, d), Scale: make([]float64, d)}
	for _, v := range train {
		addTo(m.Mean, x.Row(int(v)))
	}
	scaleBy(m.Mean, 1/float64(len(train)))
	for _, v := range train {
		for t, val := range x.Row(int(v)) {
			m.Scale[t] += (val - m.Mean[t]) * (val - m.Mean[t])
		}
	}
	for t := range m.Scale {
		sd := math.Sqrt(m.Scale[t] / float64(len(train)))
		m.Scale[t] = 1
		if sd > 1e-12 {
			m.Scale[t] = 1 / sd
		}
	}
	// Standardised training design with a bias column of ones.
	n := len(train)
	xs := NewMatrix(n, d+1)
	ys := make([]int, n)
	for r, v := range train {
		row := xs.Row(r)
		m.standardise(x.Row(int(v)), row[:d])
		row[d] = 1
		ys[r] = int(labels[v])
	}
	step := 1 / (largestEigenXtX(xs)/(2*float64(n)) + opts.L2)
	w := NewMatrix(c, d+1)
	prev := NewMatrix(c, d+1)
	look := NewMatrix(c, d+1)
	grad := NewMatrix(c, d+1)
	best := NewMatrix(c, d+1)
	bestVal := -1.0
	probs := make([]float64, c)
	val := labelled(split.Val, labels, numClasses)
	for epoch := 1; epoch <= opts.Epochs; epoch++ {
		mom := float64(epoch-1) / float64(epoch+2)
		for i := range look.Data {
			look.Data[i] = w.Data[i] + mom*(w.Data[i]-prev.Data[i])
		}
		softmaxGradient(xs, ys, look, grad, probs)
		copy(prev.Data, w.Data)
		for k := range c {
			lr, gr, wr := look.Row(k), grad.Row(k), w.Row(k)
			for t := range d + 1 {
				g := gr[t] / float64(n)
				if t < d {
					g += opts.L2 * lr[t]
				}
				wr[t] = lr[t] - step*g
			}
		}
		if len(val) > 0 && (epoch%opts.EvalEvery == 0 || epoch == opts.Epochs) {
			m.W = w
			if a := accuracyOn(m, x, labels, val); a > bestVal {
				bestVal = a
				copy(best.Data, w.Data)
			}
		}
	}
	if len(val) > 0 {
		m.W = best
	} else {
		m.W = w
	}
	acc := Accuracy{
		Train: accuracyOn(m, x, labels, train),
		Val:   accuracyOn(m, x, labels, val),
		Test:  accuracyOn(m, x, labels, labelled(split.Test, labels, numClasses)),
	}
	return m, acc, nil
}

// softmaxGradient writes sum_r (softmax(W x_r) - onehot(y_r)) x_r^T into grad
// (C x (D+1), like W).
func softmaxGradient(xs Matrix, ys []int, w, grad Matrix, probs []float64) {
	clear(grad.Data)
	for r := range xs.Rows {
		row := xs.Row(r)
		for k := range probs {
			probs[k] = dot(w.Row(k), row)
		}
		mx := probs[argmax(probs)]
		var z float64
		for k := range probs {
			probs[k] = math.Exp(probs[k] - mx)
			z += probs[k]
		}
		for k := range probs {
			probs[k] /= z
		}
		probs[ys[r]]--
		for k, pk := range probs {
			axpy(pk, row, grad.Row(k))
		}
	}
}

// largestEigenXtX estimates lambda_max(X'X) by power iteration.
func largestEigenXtX(x Matrix) float64 {
	v := make([]float64, x.Cols)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(len(v)))
	}
	xv := make([]float64, x.Rows)
	next := make([]float64, x.Cols)
	lambda := 0.0
	for range 50 {
		for r := range x.Rows {
			var s float64
			for t, a := range x.Row(r) {
				s += a * v[t]
			}
			xv[r] = s
		}
		clear(next)
		for r := range x.Rows {
			for t, a := range x.Row(r) {
				next[t] += a * xv[r]
			}
		}
		var norm float64
		for _, a := range next {
			norm += a * a
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			return 1
		}
		converged := math.Abs(norm-lambda) <= 1e-6*norm
		lambda = norm
		for t := range v {
			v[t] = next[t] / norm
		}
		if converged {
			break
		}
	}
	// Power iteration approaches lambda from below; a 5 % margin keeps the
	// step safe.
	return lambda * 1.05
}

func accuracyOn(m *LogisticModel, x Matrix, labels []int32, nodes []int32) float64 {
	if len(nodes) == 0 {
		return math.NaN()
	}
	z := make([]float64, x.Cols)
	logits := make([]float64, m.NumClasses)
	correct := 0
	for _, v := range nodes {
		m.standardise(x.Row(int(v)), z)
		m.logits(z, logits)
		if int32(argmax(logits)) == labels[v] {
			correct++
		}
	}
	return float64(correct) / float64(len(nodes))
}

// NearestClassMean classifies every split node by the closest (Euclidean)
// class mean of the training rows.
func NearestClassMean(x Matrix, labels []int32, numClasses int, split graph.Split) (Accuracy, error) {
	if err := checkClassifierInput(x, labels, numClasses, split); err != nil {
		return Accuracy{}, err
	}
	c := numClasses
	means := NewMatrix(c, x.Cols)
	cnt := make([]float64, c)
	for _, v := range labelled(split.Train, labels, c) {
		addTo(means.Row(int(labels[v])), x.Row(int(v)))
		cnt[labels[v]]++
	}
	for k := range c {
		if cnt[k] > 0 {
			scaleBy(means.Row(k), 1/cnt[k])
		}
	}
	acc := func(nodes []int32) float64 {
		nodes = labelled(nodes, labels, c)
		if len(nodes) == 0 {
			return math.NaN()
		}
		correct := 0
		for _, v := range nodes {
			best, bestD := -1, math.Inf(1)
			for k := range c {
				if cnt[k] == 0 {
					continue
				}
				var d2 float64
				for t, a := range x.Row(int(v)) {
					diff := a - means.Row(k)[t]
					d2 += diff * diff
				}
				if d2 < bestD {
					best, bestD = k, d2
				}
			}
			if int32(best) == labels[v] {
				correct++
			}
		}
		return float64(correct) / float64(len(nodes))
	}
	return Accuracy{Train: acc(split.Train), Val: acc(split.Val), Test: acc(split.Test)}, nil
}

func checkClassifierInput(x Matrix, labels []int32, numClasses int, split graph.Split) error {
	if len(labels) != x.Rows {
		return fmt.Errorf("theory: classifier: %d labels for %d rows", len(labels), x.Rows)
	}
	if numClasses < 2 {
		return fmt.Errorf("theory: classifier: numClasses = %d, need >= 2", numClasses)
	}
	for name, set := range map[string][]int32{"train": split.Train, "val": split.Val, "test": split.Test} {
		for _, v := range set {
			if v < 0 || int(v) >= x.Rows {
				return fmt.Errorf("theory: classifier: %s node %d outside [0,%d)", name, v, x.Rows)
			}
		}
	}
	return nil
}

// labelled keeps the nodes with a label in [0, numClasses).
func labelled(nodes, labels []int32, numClasses int) []int32 {
	out := make([]int32, 0, len(nodes))
	for _, v := range nodes {
		if y := labels[v]; y >= 0 && int(y) < numClasses {
			out = append(out, v)
		}
	}
	return out
}

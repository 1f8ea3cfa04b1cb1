// Package theory implements the analysis of the LW-GCN paper (Dai et al.,
// LoG 2022): closed forms for Theorem 1 (mean aggregation of GCN under
// heterophily) and Theorem 2 (label-wise aggregation), a sampler of the
// paper's assumptions with Monte Carlo estimators, sweeps over the homophily
// ratio for plots, and an empirical discriminability probe for real graphs.
//
// # Model (Section 3.2, assumptions (i) and (ii))
//
// Every node has exactly d neighbours (Params.Degree). A neighbour of a
// class-i centre is of class i with probability h (Params.H) and of each other
// class with probability (1-h)/(C-1), independently. A class-k neighbour of a
// class-i centre has, in one feature dimension, the value N(mu_ik, sigma_ik^2)
// (Params.Mu, Params.Sigma; sigma is a standard deviation). Dimensions are
// independent, so every result is per dimension; PerDimension applies a
// function to a slice of per-dimension Params.
//
// # Discriminability
//
// Between classes i and j a representation r has gap Delta = |E[r|i]-E[r|j]|
// and variances Var_i, Var_j. We report two ratios:
//
//   - Ratio  = Delta^2 / ((Var_i+Var_j)/2), the one-dimensional Fisher ratio
//     with the pooled (mean) variance, used in curves and Monte Carlo checks;
//   - RatioI = Delta^2 / Var_i, the convention of the paper's proofs (they
//     compare Delta^2 with the variance of the class-i centres only).
//
// # Theorem 1 (GCN)
//
// z_v is the mean of v's d neighbour features. Params.GCN gives the exact mean
// and the mixture variance Var(z|i) = (1/d)(sum_k p_k (sigma_ik^2+mu_ik^2) -
// (sum_k p_k mu_ik)^2). The gap is Delta(h) = |((hC-1)D + (1-h)S)/(C-1)| with
// D = mu_ii - mu_jj and S = sum_k (mu_ik - mu_jk); it vanishes at
// h* = (D-S)/(CD-S) (Params.GCNGapLine), which equals 1/C exactly only when
// S = 0. Since the ratio is Delta^2 over a positive variance it is 0 at h*, so
// its minimum over [0,1] is at h* whenever h* lies in [0,1]
// (Params.GCNRatioMinimum searches numerically and so also covers h* outside
// [0,1]). The paper's statement "the discriminability decreases until h = 1/C"
// therefore holds only for S = 0; see Params.GCNAtUniformMixing for the
// corrected non-discriminability condition at h = 1/C.
//
// # Theorem 2 (label-wise aggregation)
//
// a_{v,k} is the mean of v's class-k neighbours, the zero vector when v has
// none (the paper's convention). The class-k count is n ~ Binomial(d, p_k).
// Params.LabelWise gives the paper's approximation Var ~ sigma_ik^2/(d p_k)
// (the expected count in place of the random one) and the exact moments
// E[a] = (1-q) mu_ik, Var[a] = sigma_ik^2 E[1/n; n>=1] + mu_ik^2 q (1-q) with
// q = (1-p_k)^d, E[1/n; n>=1] summed exactly from the binomial pmf.
//
// # Corrections to the paper
//
//   - Theorem 1 proof, last step: "sigma_i > sqrt(d)|mu_ik - mu_ik|" repeats an
//     index; the argument needs sigma_i > sqrt(d) |mu_ik - mu_jk| for all k
//     (then Var(z|i) >= sigma_i^2/d > max_k |mu_ik-mu_jk|^2 >= (S/C)^2 =
//     Delta^2). The statement's d < sigma_i^2/|mu_ik-mu_jk|^2 is the same
//     condition. At h = 1/C every p_k is 1/C, so the proof's inequality
//     Var(z|i) >= (1/d)(mean_k sigma_ik^2 + sigma_i^2) is an equality.
//   - Theorem 1: Delta(h) is |linear| in h with its zero at h*, not at 1/C,
//     unless S = 0; the proof's monotone upper and lower bounds on Delta do not
//     make Delta itself monotone on [1/C, 1].
//   - Assumption (ii) names the standard deviations "sigma_ik and sigma_ik";
//     the second is sigma_jk.
//   - Theorem 2 proof: the indices of its Eq. for h >= 1/C are right (k = i
//     gives the gap |mu_ii - mu_ji|); for h >= 1/C the bound uses k = i and
//     for h <= 1/C any k != i (LabelWiseBound). The proof compares the gap
//     with Var(a|i) only and uses the approximate variance sigma^2/(d p_k):
//     since E[1/n; n>=1] > 1/(d p) for large d p (Jensen), and since the
//     zero embedding pulls E[a|j] towards 0 when class-j centres rarely have
//     class-k neighbours, the exact ratio can fall below the bound, and even
//     below 1 while the condition holds (C = 2, d = 2, h = 0.1: exact 0.247,
//     bound 4; see ExampleParams_LabelWise).
//     With many neighbours of every class the bound does hold
//     (TestLabelWiseConditionKeepsDiscriminability), but near the ends of
//     the h range some class is almost never a neighbour, its block is
//     almost always the zero embedding, and the exact ratio can drop below 1
//     at any d (C = 2, mu = [[2,0],[0,2]]: ratio 0 at h = 0 for every d;
//     the band below 1 shrinks from h < 0.225 at d = 2 to h < 0.005 at d = 20).
//
// # Empirical probe
//
// Discriminability measures GCN-aggregated, label-wise-aggregated and raw
// features of a *graph.Graph: per-dimension Fisher ratios and the test
// accuracy of a multinomial logistic regression (and of nearest class mean),
// after an optional fixed random Gaussian projection. PredictedVsMeasured
// puts the closed forms, with their assumptions estimated from a graph
// (Params from its edges, its homophily and degree), beside the Fisher ratios
// the graph measures along the direction between two classes' means.
package theory

package labelwise

// AblationNotes are measured reasons for Table 3 cells of the LW-GCN
// variants (by Config.Name, then dataset) that lie more than twice the
// paper's std from its number; docs/RESULTS.md shows a note only while its
// cell is that far out. The rows where f_G decides are explained from the
// runs themselves (report's f_G-decides notes), not here.
var AblationNotes = map[string]map[string]string{
	"lwgcn-g": {
		"cora": "f_C alone, the reference f_C (small variant, 2 layers of 64, dropout 0.6, wd 1e-4, lr 0.01): seeds " +
			"10-12 test 71.3, 70.3 and 70.6 at 0769274 (71.0, 70.3 and 71.2 at 4c1f939). A 16-point validation " +
			"grid on seed 10 (variant small or dense, hidden 64 or 256, dropout 0.5 or 0.6, " +
			"weight decay 1e-4 or 5e-4; the grid below) keeps the reference point (validation 71.0, test 71.3, also " +
			"the grid's highest test); the dense variant, which has no dropout, reaches validation 66.0 at most. So " +
			"f_C's settings do not close the 4.6 points to the paper's 75.3. f_P, the MLP, labels 57.8 % of the " +
			"test nodes right on seed 10 (Table 3's MLP 58.4, the paper's 58.7): the pseudo-labels are not worse " +
			"than the paper's.",
		"citeseer": "f_C alone, the reference f_C (small variant, 2 layers of 256, dropout 0.7, wd 5e-4, lr 0.01). " +
			"At 0769274 seeds 10-12 test 59.2, 62.0 and 62.2; the same seeds and settings tested 63.9, 64.0 and 61.4 " +
			"at 246612f, with the same pseudo-labels (60.1 % right on seed 10): the cell moves by two points with " +
			"the run's numerics, as the code changed between those commits (at 6dac81c seed 10 tests 59.2 too, " +
			"with lwgcn's kernels on or off). An 8-point validation grid on seed 10 (variant small or dense, " +
			"hidden 64 or 256, weight decay 1e-4 or 5e-4 at the reference dropout 0.7; the grid below) keeps the " +
			"reference point (validation 62.8); the others test 57.0-63.2, so f_C's settings do not close the gap.",
		"pubmed": "f_C alone, the reference f_C (small variant, 2 layers of 256, dropout 0.5, wd 5e-4, lr 0.01): " +
			"seeds 10-12 test 68.9, 68.5 and 70.3; seed 10 tests 68.9 again at 8290918. A 6-point validation grid " +
			"on seed 10 (the reference and, one at a time, the dense variant, hidden 64, weight decay 1e-4 and " +
			"dropout 0.6, plus hidden 64 with weight decay 1e-4; the grid below) keeps the reference point " +
			"(validation 73.2, the highest); the others test 67.8-70.1 (the best, weight decay 1e-4, still 2.3 " +
			"short), so f_C's settings do not close the 3.2 points to the paper's 72.4. f_P, the MLP, labels " +
			"71.9 % of the test nodes right over the seeds (Table 2's f_P column): f_C alone tests 2.7 below its " +
			"own pseudo-labeller and 3.8 below Table 3's MLP " +
			"(73.0), where the paper's LW-GCN\\G (72.4) is level with its MLP (72.7); on Cora and Citeseer f_C alone " +
			"tests above its pseudo-labeller (70.7 against 58.4, 61.1 against 59.8).",
	},
}

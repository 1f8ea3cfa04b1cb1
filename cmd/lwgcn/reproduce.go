package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

func init() {
	register(command{name: "reproduce", summary: "run the paper's tables (table2, table3, refine, depth) and the heterophily benchmark (platonov) into results/, resumable", run: runReproduce})
}

// Experiment definitions: datasets and methods of each table.
var reproductions = map[string]struct {
	datasets, methods []string
	about             string
}{
	"table2": {
		datasets: experiments.Table2Datasets,
		methods:  experiments.Table2Methods,
		about:    "node classification: LW-GCN and the baselines (Table 2 and appendix Tables 5-6)",
	},
	"table3": {
		datasets: experiments.Table3Datasets,
		methods:  []string{"lwgcn-p", "lwgcn-g", "lwgcn-gcn"},
		about:    `ablation (Table 3): LW-GCN\P, LW-GCN\G, LW-GCN_GCN (MLP, GCN, GCNII and LW-GCN come from table2)`,
	},
	"depth": {
		datasets: []string{"texas", "chameleon", "squirrel"},
		methods:  []string{"lwgcn", "gcn"},
		about:    "depth sensitivity (appendix figure on layers): f_C depth 2-6 for LW-GCN, 2-6 layers for GCN",
	},
	"platonov": {
		datasets: experiments.PlatonovDatasets,
		methods:  experiments.PlatonovMethods,
		about: "beyond the paper: the heterophily benchmark of Platonov et al. (minesweeper and tolokers by ROC-AUC, " +
			"their 10 splits; the filtered graphs' Table 2 runs are reused from results/table2.json)",
	},
	"refine": {
		datasets: []string{"texas", "wisconsin", "cornell", "chameleon", "squirrel"},
		methods:  []string{"lwgcn+refine2"},
		about:    "beyond the paper: pseudo-labels refined with LW-GCN's own predictions for 2 rounds",
	},
}

// addBatchFlag adds -batch, which reproduce and sweep share.
func addBatchFlag(fs *flag.FlagSet) *int {
	return fs.Int("batch", experiments.BatchAuto, "runs of a cell trained together in one computation: 0 = auto (batched for "+
		"the methods measured faster batched, "+strings.Join(experiments.BatchedMethodsByDefault(), ", ")+
		fmt.Sprintf(" (GCNII while layers x nodes x hidden <= %d, GPRGNN from %d edges, FAGCN from %d)",
			zoo.GCNIIAutoBatchMaxWork, zoo.GPRGNNAutoBatchMinEdges, zoo.FAGCNAutoBatchMinEdges)+
		", and on a GPU LW-GCN and its variants, as many runs as memory allows; the others alone), 1 = every run alone, N = N runs per "+
		"computation for every method (the baselines, LW-GCN and its ablations)")
}

// resultsDir is <repo>/results (or ./results outside the repository).
func resultsDir() string {
	if d := buildinfo.SourceDir(); d != "" {
		return filepath.Join(d, "results")
	}
	return "results"
}

// checkRunFlags checks the -epochs and -max-runs flags reproduce, grid and
// sweep share: -epochs, when given, must be >= 1 (left out, each method keeps
// its reference) and -max-runs >= 0 (0: every run).
func checkRunFlags(fs *flag.FlagSet, epochs, maxRuns int) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "epochs" })
	if given && epochs < 1 {
		return usageErrorf("-epochs %d: must be >= 1 (leave it out for each method's reference)", epochs)
	}
	if maxRuns < 0 {
		return usageErrorf("-max-runs %d: must be >= 0 (0: every run)", maxRuns)
	}
	return nil
}

// checkNameFlags rejects unknown names in the dataset flag (dsFlag) and -methods before any
// work (exit status 2).
func checkNameFlags(dsFlag string, dsNames, methods []string) error {
	for _, d := range dsNames {
		if _, ok := datasets.Lookup(d); !ok {
			return usageErrorf("-%s: unknown dataset %q (known: %s)", dsFlag, d, strings.Join(datasets.Names(), ", "))
		}
	}
	known := experiments.Methods()
	for _, m := range methods {
		if !slices.Contains(known, m) {
			return usageErrorf("-methods: unknown method %q (have %s)", m, strings.Join(known, ", "))
		}
	}
	return nil
}

func runReproduce(args []string) error {
	fs := newFlagSet("reproduce", "table2|table3|refine|depth|platonov [flags]")
	dsFlag := fs.String("datasets", "", "comma-separated datasets (default: the table's)")
	mFlag := fs.String("methods", "", "comma-separated methods (default: the table's; see -list)")
	quick := fs.Bool("quick", false, "quick mode: 40 epochs, 2 runs per dataset, into results/quick/")
	epochs := fs.Int("epochs", 0, "override the epochs of every method, >= 1 (default: each method's reference; -quick: 40)")
	maxRuns := fs.Int("max-runs", 0, "run only the first N (split, seed) runs of each dataset (default: all)")
	splitsFlag := fs.String("splits", "", "run only the splits in this `list`, e.g. 3, 0-4 or 0,2,5 (default: all); "+
		"processes given disjoint splits, each with its own -results file, run a table in parallel: then lwgcn merge their files")
	out := fs.String("results", "", "results file (default results/<table>.json)")
	data := addDataFlags(fs)
	list := fs.Bool("list", false, "list the tables and methods and exit")
	quiet := fs.Bool("quiet", false, "no per-epoch progress bar")
	batch := addBatchFlag(fs)
	workerF := addWorkerFlags(fs, "dataset")
	// The table name may come before the flags.
	table := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		table, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if table == "" && fs.NArg() == 1 {
		table = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := checkRunFlags(fs, *epochs, *maxRuns); err != nil {
		return err
	}
	if *batch < 0 {
		return usageErrorf("-batch %d: must be >= 0 (0: auto, 1: every run alone, N: N runs per computation)", *batch)
	}
	worker, workers, err := workerF.parse()
	if err != nil {
		return err
	}
	var splits []int
	if *splitsFlag != "" && *splitsFlag != "all" {
		if splits, err = parseSplits(*splitsFlag, -1); err != nil {
			return err
		}
	}
	if *list {
		for name, r := range reproductions {
			fmt.Printf("%-8s %s\n         datasets: %s\n         methods: %s\n", name, r.about,
				strings.Join(r.datasets, ", "), strings.Join(r.methods, ", "))
		}
		fmt.Println("methods available:", strings.Join(experiments.Methods(), ", "))
		return nil
	}
	if table == "" {
		fs.Usage()
		return usageErrorf("name one table: table2, table3, refine, depth or platonov")
	}
	def, ok := reproductions[table]
	if !ok {
		return usageErrorf("unknown table %q (want table2, table3, refine, depth or platonov)", table)
	}
	spec := experiments.Spec{Experiment: table, Datasets: def.datasets, Methods: def.methods,
		DatasetOptions: data.options(), Log: os.Stdout, Splits: splits, MaxRuns: *maxRuns, Command: "reproduce",
		Batch: *batch, Worker: worker, Workers: workers}
	if *dsFlag != "" {
		spec.Datasets = strings.Split(*dsFlag, ",")
	}
	if *mFlag != "" {
		spec.Methods = strings.Split(*mFlag, ",")
	}
	if err := checkNameFlags("datasets", spec.Datasets, spec.Methods); err != nil {
		return err
	}
	spec.ResultsPath = filepath.Join(resultsDir(), table+".json")
	if *quick {
		spec.Override.Epochs, spec.MaxRuns, spec.Tag = 40, 2, "quick"
		spec.ResultsPath = filepath.Join(resultsDir(), "quick", table+".json")
	}
	if *epochs > 0 {
		spec.Override.Epochs = *epochs
	}
	if table == "platonov" {
		// The filtered graphs' runs of Table 2 (same settings) count as done.
		spec.Reuse = []experiments.Reuse{{Path: filepath.Join(filepath.Dir(spec.ResultsPath), "table2.json"),
			Experiment: "table2"}}
	}
	if *out != "" {
		spec.ResultsPath = *out
	}
	if err := checkResultsOutput("-results", spec.ResultsPath); err != nil {
		return err
	}
	if *workerF.procs > 1 {
		return runWorkers(fs, []string{"reproduce", table}, *workerF.procs, spec.ResultsPath)
	}
	s, err := newSession(*quiet)
	if err != nil {
		return err
	}
	defer s.stop()
	spec.Progress = s.progress
	fmt.Fprintf(os.Stderr, "%s: %s\nresults: %s (resumes: recorded runs are skipped)\n", table, def.about, spec.ResultsPath)
	if table == "depth" {
		_, err = experiments.Depth(s.ctx, s.backend, s.info, spec, experiments.DepthLayers)
	} else {
		_, err = experiments.Run(s.ctx, s.backend, s.info, spec)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "done; `lwgcn results` regenerates docs/RESULTS.md\n")
	return nil
}

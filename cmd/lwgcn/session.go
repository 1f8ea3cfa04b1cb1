package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// session is what a training command needs: the backend (announced on
// stderr in one line), a context cancelled by Ctrl-C, and the progress
// reporter for epochs.
type session struct {
	backend  compute.Backend
	info     backend.Info
	ctx      context.Context
	stop     context.CancelFunc
	progress train.Progress
}

func newSession(quiet bool) (*session, error) {
	b, info, err := backend.Shared()
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(os.Stderr, info)
	s := &session{backend: b, info: info, progress: train.Silent{}}
	s.ctx, s.stop = signal.NotifyContext(context.Background(), os.Interrupt)
	if !quiet {
		s.progress = train.NewTerminal(os.Stderr)
	}
	return s, nil
}

// dataFlags are the dataset location flags every command shares.
type dataFlags struct {
	mirror, cache *string
	sums          sumsFlag
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	d := dataFlags{
		mirror: fs.String("mirror", "", "dataset mirror URL or directory (default $LWGCN_MIRROR)"),
		cache:  fs.String("cache", "", "dataset cache directory (default $LWGCN_DATA, else data/cache in the repository)"),
		sums:   sumsFlag{},
	}
	fs.Var(d.sums, "sha256", "`FILE=SUM`: vouch for an unpinned dataset file (its cache path, e.g. "+
		"graphmining.ai/datasets/ptg/wiki/crocodile.npz) with its SHA-256: a mirror's copy is used only with it; "+
		"repeat the flag or separate with commas")
	return d
}

func (d dataFlags) options() []datasets.Option {
	var opts []datasets.Option
	if *d.mirror != "" {
		opts = append(opts, datasets.WithMirror(*d.mirror))
	}
	if *d.cache != "" {
		opts = append(opts, datasets.WithCacheDir(*d.cache))
	}
	for path, sum := range d.sums {
		opts = append(opts, datasets.WithSHA256(path, sum))
	}
	return opts
}

// sumsFlag is -sha256 FILE=SUM[,FILE=SUM...], repeatable.
type sumsFlag map[string]string

func (s sumsFlag) String() string {
	var parts []string
	for k, v := range s {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (s sumsFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		path, sum, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || path == "" || !datasets.ValidSHA256(sum) {
			return fmt.Errorf("%q: want FILE=SUM with SUM 64 hex digits (sha256sum's output)", part)
		}
		s[path] = strings.ToLower(sum)
	}
	return nil
}

// writeJSON writes v as indented JSON to path atomically ("-": stdout).
func writeJSON(path string, v any) error {
	if path == "-" {
		return json.NewEncoder(os.Stdout).Encode(v)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := results.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}

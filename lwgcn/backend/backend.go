package backend

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/support/envutil"
	"github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// Environment variables read by New.
const (
	// EnvBackend is GoMLX's backend selector (compute.ConfigEnvVar).
	EnvBackend = compute.ConfigEnvVar
	// EnvFusion is GoMLX's fused-ops switch (graph.FusionEnv).
	EnvFusion = graph.FusionEnv
	// EnvXLATimeout overrides XLATimeout (a Go duration, e.g. "30s").
	EnvXLATimeout = "LWGCN_XLA_TIMEOUT"
)

// DefaultFusion is the GOMLX_FUSION value lwgcn sets when the user did not.
//
// Fusion only changes nn.Dense (lwgcn's Linear) and the activations; the
// graph convolutions are gathers, reductions and plain Dots either way.
// Measured with `lwgcn bench` (GCN and the label-wise network, fusion on vs
// off, at every graph size; AMD EPYC, 2 cores, AVX2, a shared VM): no case
// is consistently faster fused — differences stay within the run-to-run
// noise (±20 % at arxiv-year size, in both directions) — while an earlier
// probe found the fused dense gradient's transpose costing 40 % of a
// label-wise epoch. So lwgcn turns fusion off unless GOMLX_FUSION says
// otherwise.
const DefaultFusion = false

// XLATimeout bounds the time New waits for XLA to start (loading the plugin,
// or go-xla's download of one); past it New returns an error.
var XLATimeout = 90 * time.Second

// DefaultBackend is the backend every command uses when GOMLX_BACKEND is
// unset, and DefaultReason says why (printed in the backend line). Chosen
// from `lwgcn bench -backends go,xla:cpu` on an idle 2-core AMD EPYC
// (docs/RESULTS.md, "Backends"): XLA CPU's steady-state LW-GCN epoch is
// 1.0-1.2x faster than pure Go's on Texas and Chameleon, 1.0-1.2x slower on
// Cora and 2.1-2.4x slower on Squirrel, and XLA compiles each graph for 3 to
// 34 s where pure Go takes under 0.3 s. Where XLA is faster, its gain pays
// back the compile only after 1,289 epochs or more on one graph, longer
// than LW-GCN's reference runs (400 epochs, labelwise.DefaultEpochs), so
// pure Go is the default of every command; XLA is one GOMLX_BACKEND=xla:cpu
// away.
const (
	DefaultBackend = gobackend.BackendName
	DefaultReason  = "lwgcn default: pure Go; XLA CPU's LW-GCN epoch is at most 1.2x faster (Texas, Chameleon) and up to 2.4x slower (Squirrel), and its 3-34 s compile outweighs that gain in runs of this length (docs/RESULTS.md)"
)

// Info describes the backend a run uses; it is recorded with every result.
type Info struct {
	// Name is "go" for the pure-Go backend, or "xla:<plugin>" with the options
	// given after it (e.g. "xla:cpu", "xla:xla_cuda_plugin.so,tf32=false").
	Name string `json:"name"`
	// Requested is GOMLX_BACKEND as set by the user ("" when unset).
	Requested string `json:"requested,omitempty"`
	// Plugin is the PJRT plugin file XLA runs on, PJRTVersion its PJRT C API
	// version.
	Plugin      string `json:"plugin,omitempty"`
	PJRTVersion string `json:"pjrt_version,omitempty"`
	// XLACompiledIn says whether this binary includes XLA support.
	XLACompiledIn bool `json:"xla_compiled_in"`
	// SIMD is whether the binary was built with GOEXPERIMENT=simd.
	SIMD bool `json:"simd"`
	// Fusion is the effective GOMLX_FUSION value; FusionSet says whether the
	// user set it (false: lwgcn's DefaultFusion).
	Fusion    bool `json:"fusion"`
	FusionSet bool `json:"fusion_set_by_user"`
	// Description is the backend's own description.
	Description string `json:"description,omitempty"`
	// Kernels are lwgcn's kernels that run on the pure-Go backend
	// (gokernels.Active; none on XLA).
	Kernels []string `json:"kernels,omitempty"`
	// XLAFlags is XLA_FLAGS as the XLA plugin read it; XLAFlagsAdded says
	// lwgcn added its GPU defaults (GPUAutotuneLevel) to them.
	XLAFlags      string `json:"xla_flags,omitempty"`
	XLAFlagsAdded bool   `json:"xla_flags_added,omitempty"`
}

// IsGo reports whether the pure-Go backend is in use.
func (i Info) IsGo() bool { return i.Name == gobackend.BackendName }

// OnGPU reports whether the backend is XLA on a GPU plugin (CUDA, ROCm).
func (i Info) OnGPU() bool { return !i.IsGo() && i.Plugin != "" && buildinfo.PluginOnGPU(i.Plugin) }

// String is the one line printed at the start of every run, e.g.
//
//	backend: go (pure Go, SIMD on, fusion off: lwgcn default) — GOMLX_BACKEND unset; XLA unavailable: ...
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("backend: ")
	b.WriteString(i.Name)
	var details []string
	if i.IsGo() {
		simd := "SIMD " + onOff(i.SIMD)
		if v := buildinfo.Get().Vector; i.SIMD && v != "" {
			simd += " with " + v + " kernels"
			if v == buildinfo.VectorNone {
				simd = "SIMD on without vector kernels"
			}
		}
		kernels := "lwgcn kernels: " + strings.Join(i.Kernels, "+")
		if len(i.Kernels) == 0 {
			kernels = "lwgcn kernels off"
		}
		details = append(details, "pure Go", simd, kernels)
	}
	fusion := "fusion " + onOff(i.Fusion)
	if i.FusionSet {
		fusion += ": " + EnvFusion + " set"
	} else {
		fusion += ": lwgcn default"
	}
	details = append(details, fusion)
	fmt.Fprintf(&b, " (%s)", strings.Join(details, ", "))
	if i.Plugin != "" {
		fmt.Fprintf(&b, " plugin %s, PJRT v%s", i.Plugin, i.PJRTVersion)
	}
	if i.XLAFlags != "" {
		fmt.Fprintf(&b, ", %s=%q", EnvXLAFlags, i.XLAFlags)
		if i.XLAFlagsAdded {
			fmt.Fprintf(&b, " (%s=%d: lwgcn's GPU default)", autotuneFlag, GPUAutotuneLevel)
		}
	}
	if i.Requested == "" {
		b.WriteString(" — " + EnvBackend + " unset: " + DefaultReason)
	} else {
		fmt.Fprintf(&b, " — %s=%s", EnvBackend, i.Requested)
	}
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

var (
	sharedOnce    sync.Once
	sharedBackend compute.Backend
	sharedInfo    Info
	sharedErr     error
)

// Shared returns one process-wide backend, created by New on first use.
// Tensors cannot move between backend instances, so everything in a process
// should use this one.
func Shared() (compute.Backend, Info, error) {
	sharedOnce.Do(func() { sharedBackend, sharedInfo, sharedErr = New() })
	return sharedBackend, sharedInfo, sharedErr
}

// MustShared is Shared for tests and examples: it panics on error.
func MustShared() (compute.Backend, Info) {
	b, info, err := Shared()
	if err != nil {
		panic(err)
	}
	return b, info
}

// New creates the backend selected by GOMLX_BACKEND (see the package
// documentation) and returns its description. It sets GOMLX_FUSION to
// DefaultFusion when unset. A backend that was asked for and cannot be had
// is an error in one line (which file, what failed), never a fallback.
func New() (compute.Backend, Info, error) { return NewFor(os.Getenv(EnvBackend)) }

// NewFor is New for an explicit GOMLX_BACKEND value (e.g. "xla:cpu"; ""
// for the default), for programs that compare backends in one process.
func NewFor(requested string) (compute.Backend, Info, error) {
	info := Info{SIMD: buildinfo.SIMD, XLACompiledIn: xlaCompiledIn}
	fusion, set, err := fusionSetting()
	if err != nil {
		return nil, info, err
	}
	info.Fusion, info.FusionSet = fusion, set

	requested = strings.TrimSpace(requested)
	info.Requested = requested
	config := requested
	if config == "" {
		config = DefaultBackend
	}
	name, _, _ := strings.Cut(config, ":")
	switch {
	case name == gobackend.BackendName:
		b, err := newGo(config)
		if err != nil {
			return nil, info, err
		}
		return b, finish(info, b, gobackend.BackendName), nil
	case isXLAName(name):
		b, x, err := newXLA(config)
		if err != nil {
			return nil, info, fmt.Errorf("backend: %s=%s: %s", EnvBackend, requested, oneLine(err))
		}
		info.Plugin, info.PJRTVersion = x.plugin, x.version
		info.XLAFlags, info.XLAFlagsAdded = os.Getenv(EnvXLAFlags), x.flagsAdded
		return b, finish(info, b, x.name), nil
	default:
		b, err := newOther(config)
		if err != nil {
			return nil, info, fmt.Errorf("backend: %s=%s: %s", EnvBackend, requested, oneLine(err))
		}
		return b, finish(info, b, config), nil
	}
}

// Describe returns an Info for a backend created elsewhere (the request
// and fallback fields are left empty).
func Describe(b compute.Backend) Info {
	info := Info{SIMD: buildinfo.SIMD, XLACompiledIn: xlaCompiledIn}
	info.Fusion, _ = envutil.ReadBool(EnvFusion, true)
	_, info.FusionSet = os.LookupEnv(EnvFusion)
	name := b.String()
	if p, ok := b.(interface{ PluginName() string }); ok && p.PluginName() != "" {
		name += ":" + p.PluginName()
	}
	return finish(info, b, name)
}

func finish(info Info, b compute.Backend, name string) Info {
	info.Name = name
	info.Description = b.Description()
	if info.IsGo() {
		info.Kernels = gokernels.Active()
	}
	return info
}

func isXLAName(name string) bool {
	switch name {
	case "xla", "stablehlo", "shlo", "hlo", "pjrt":
		return true
	}
	return false
}

// fusionSetting reads GOMLX_FUSION, setting it to DefaultFusion when unset.
func fusionSetting() (fusion, userSet bool, err error) {
	if v, ok := os.LookupEnv(EnvFusion); ok && v != "" && !(fusionSetByLwgcn && v == fusionDefaultValue()) {
		f, err := envutil.ReadBool(EnvFusion, true)
		if err != nil {
			return false, true, fmt.Errorf("backend: %w", err)
		}
		return f, true, nil
	}
	if err := os.Setenv(EnvFusion, fusionDefaultValue()); err != nil {
		return false, false, fmt.Errorf("backend: setting %s: %w", EnvFusion, err)
	}
	fusionSetByLwgcn = true
	return DefaultFusion, false, nil
}

// fusionSetByLwgcn records that GOMLX_FUSION holds lwgcn's default, set by
// an earlier New (a second backend in the process still reports it as
// lwgcn's default, not the user's).
var fusionSetByLwgcn bool

func fusionDefaultValue() string {
	if DefaultFusion {
		return "1"
	}
	return "0"
}

func newGo(config string) (compute.Backend, error) {
	_, cfg, _ := strings.Cut(config, ":")
	b, err := gobackend.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("backend: creating the pure-Go backend (%s=%q): %w", EnvBackend, config, err)
	}
	return b, nil
}

// newOther creates any other registered backend, turning GoMLX's panics
// (unknown backend name) into errors.
func newOther(config string) (b compute.Backend, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return compute.NewWithConfig(config)
}

// xlaPlugin describes the plugin an XLA backend runs on.
type xlaPlugin struct {
	name    string // "xla:cpu", with the options given after it (",tf32=false")
	plugin  string // the plugin file ("" when go-xla found it)
	version string // its PJRT C API version
	// flagsAdded: lwgcn added its GPU defaults to XLA_FLAGS (setGPUDefaults).
	flagsAdded bool
}

// newXLA creates the XLA backend for a configuration "xla[:plugin][,opts]"
// where plugin is a name ("cpu", "cuda") or an absolute file path. Named
// plugins are looked up by findPlugin; a file is checked by CheckPluginFile
// and loadPJRT before go-xla creates the backend. When no file is found
// the request fails saying how to install the pinned plugin (`make xla`):
// go-xla never downloads one. Everything runs within XLATimeout.
func newXLA(config string) (compute.Backend, xlaPlugin, error) {
	if !xlaCompiledIn {
		return nil, xlaPlugin{}, errors.New(xlaMissingReason)
	}
	timeout := XLATimeout
	if v := os.Getenv(EnvXLATimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, xlaPlugin{}, fmt.Errorf("%s=%q: want a positive Go duration such as 30s", EnvXLATimeout, v)
		}
		timeout = d
	}
	_, rest, _ := strings.Cut(config, ":")
	plugin, options, _ := strings.Cut(rest, ",")
	if options != "" {
		options = "," + options
	}
	if plugin == "" {
		plugin = "cpu"
	}
	type result struct {
		b   compute.Backend
		x   xlaPlugin
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, x, err := startXLA(plugin, options)
		done <- result{b, x, err}
	}()
	select {
	case r := <-done:
		return r.b, r.x, r.err
	case <-time.After(timeout):
		return nil, xlaPlugin{}, fmt.Errorf("gave up after %v waiting for the XLA plugin %q to load (or download); set %s to wait longer",
			timeout, plugin, EnvXLATimeout)
	}
}

func startXLA(plugin, options string) (compute.Backend, xlaPlugin, error) {
	path := plugin
	if filepath.IsAbs(plugin) {
		if err := CheckPluginFile(path); err != nil {
			return nil, xlaPlugin{}, err
		}
	} else {
		p, found, err := findPlugin(plugin)
		if err != nil {
			return nil, xlaPlugin{}, err
		}
		if !found {
			// go-xla would download the latest plugin, unchecked: never.
			return nil, xlaPlugin{}, fmt.Errorf("no XLA plugin file %s in %s: run `make xla` (installs the pinned plugin, "+
				"checksum-checked, into %s) or set %s to a plugin file; lwgcn never lets go-xla download one (%s)",
				PluginFileName(plugin), strings.Join(pluginSearchDirs(), ", "), ProjectPluginDir, EnvXLAPlugin, EnvNoAutoInstall)
		}
		path = p
	}
	// Before the plugin starts: XLA reads its flags then.
	added := setGPUDefaults(path)
	version, err := loadPJRT(path)
	if err != nil {
		return nil, xlaPlugin{}, err
	}
	b, err := newXLAFromFile(path, options)
	if err != nil {
		return nil, xlaPlugin{}, err
	}
	// The options (e.g. ",tf32=false") stay in the name that results
	// record: they change what a GPU computes.
	return b, xlaPlugin{name: "xla:" + pluginNameOf(path) + options, plugin: path, version: version, flagsAdded: added}, nil
}

// pluginNameOf is the plugin name in a file name (pjrt_c_api_cpu_plugin.so:
// "cpu"), else the file name itself.
func pluginNameOf(path string) string {
	base := filepath.Base(path)
	if n, ok := strings.CutPrefix(base, "pjrt_c_api_"); ok {
		if i := strings.LastIndex(n, "_plugin."); i > 0 {
			return n[:i]
		}
	}
	return base
}

// oneLine keeps the first line of an error message (GoMLX errors can carry
// stack traces).
func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

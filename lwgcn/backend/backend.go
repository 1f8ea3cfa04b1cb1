package backend

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/support/envutil"
	"github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
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

// XLATimeout bounds the time New waits for XLA to start (which may include a
// plugin download); past it, the pure-Go backend is used.
var XLATimeout = 90 * time.Second

// Info describes the backend a run uses; it is recorded with every result.
type Info struct {
	// Name is "go" for the pure-Go backend, or "xla:<plugin>" (e.g. "xla:cpu").
	Name string `json:"name"`
	// Requested is GOMLX_BACKEND as set by the user ("" when unset).
	Requested string `json:"requested,omitempty"`
	// Fallback is true when the requested (or default) backend could not be
	// created and the pure-Go backend was used instead; Reason says why.
	Fallback bool   `json:"fallback,omitempty"`
	Reason   string `json:"reason,omitempty"`
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
}

// IsGo reports whether the pure-Go backend is in use.
func (i Info) IsGo() bool { return i.Name == gobackend.BackendName }

// String is the one line printed at the start of every run, e.g.
//
//	backend: go (pure Go, SIMD on, fusion off: lwgcn default) — GOMLX_BACKEND unset; XLA unavailable: ...
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("backend: ")
	b.WriteString(i.Name)
	var details []string
	if i.IsGo() {
		details = append(details, "pure Go", "SIMD "+onOff(i.SIMD))
	}
	fusion := "fusion " + onOff(i.Fusion)
	if i.FusionSet {
		fusion += ": " + EnvFusion + " set"
	} else {
		fusion += ": lwgcn default"
	}
	details = append(details, fusion)
	fmt.Fprintf(&b, " (%s)", strings.Join(details, ", "))
	if i.Requested == "" {
		b.WriteString(" — " + EnvBackend + " unset")
	} else {
		fmt.Fprintf(&b, " — %s=%s", EnvBackend, i.Requested)
	}
	if i.Fallback {
		b.WriteString("; " + i.Reason)
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
// DefaultFusion when unset. The error is non-nil only when GOMLX_FUSION has
// an invalid value or not even the pure-Go backend can be created.
func New() (compute.Backend, Info, error) {
	info := Info{SIMD: buildinfo.SIMD, XLACompiledIn: xlaCompiledIn}
	fusion, set, err := fusionSetting()
	if err != nil {
		return nil, info, err
	}
	info.Fusion, info.FusionSet = fusion, set

	requested, isSet := os.LookupEnv(EnvBackend)
	requested = strings.TrimSpace(requested)
	info.Requested = requested
	name, _, _ := strings.Cut(requested, ":")
	switch {
	case isSet && requested != "" && name == gobackend.BackendName:
		b, err := newGo(requested)
		if err != nil {
			return nil, info, err
		}
		return b, finish(info, b, gobackend.BackendName), nil
	case !isSet || requested == "":
		// GoMLX's default is XLA.
		b, xlaName, err := newXLA("xla")
		if err == nil {
			return b, finish(info, b, xlaName), nil
		}
		info.Fallback, info.Reason = true, "XLA unavailable: "+oneLine(err)
	case isXLAName(name):
		b, xlaName, err := newXLA(requested)
		if err == nil {
			return b, finish(info, b, xlaName), nil
		}
		info.Fallback, info.Reason = true, "XLA unavailable: "+oneLine(err)
	default:
		b, err := newOther(requested)
		if err == nil {
			return b, finish(info, b, requested), nil
		}
		info.Fallback, info.Reason = true, fmt.Sprintf("backend %q unavailable: %s", requested, oneLine(err))
	}
	b, err := newGo(gobackend.BackendName)
	if err != nil {
		return nil, info, err
	}
	return b, finish(info, b, gobackend.BackendName), nil
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
	if v, ok := os.LookupEnv(EnvFusion); ok && v != "" {
		f, err := envutil.ReadBool(EnvFusion, true)
		if err != nil {
			return false, true, fmt.Errorf("backend: %w", err)
		}
		return f, true, nil
	}
	val := "0"
	if DefaultFusion {
		val = "1"
	}
	if err := os.Setenv(EnvFusion, val); err != nil {
		return false, false, fmt.Errorf("backend: setting %s: %w", EnvFusion, err)
	}
	return DefaultFusion, false, nil
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

// newXLA creates the XLA backend within the time limit; the plugin
// auto-install (a download) runs in a goroutine that is abandoned on
// timeout. It returns the "xla:<plugin>" name.
func newXLA(config string) (compute.Backend, string, error) {
	if !xlaCompiledIn {
		return nil, "", errors.New(xlaMissingReason)
	}
	timeout := XLATimeout
	if v := os.Getenv(EnvXLATimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%q: %w", EnvXLATimeout, v, err)
		}
		timeout = d
	}
	type result struct {
		b   compute.Backend
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := newOther(config)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, "", r.err
		}
		name := "xla"
		if p, ok := r.b.(interface{ PluginName() string }); ok && p.PluginName() != "" {
			name += ":" + p.PluginName()
		}
		return r.b, name, nil
	case <-time.After(timeout):
		return nil, "", fmt.Errorf("gave up after %v waiting for the XLA plugin (auto-install download?); set %s to wait longer or %s=go to skip XLA",
			timeout, EnvXLATimeout, EnvBackend)
	}
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

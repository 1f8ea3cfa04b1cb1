//go:build cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package backend

import (
	"fmt"
	"os"

	"github.com/go-logr/logr"
	"github.com/gomlx/compute"
	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
	"k8s.io/klog/v2"
)

// go-xla can download the latest plugin from GitHub, unchecked, and load
// it. lwgcn never lets it: no installer is linked (the autoinstall package
// is not imported), its auto-install switch is off, and
// GOMLX_NO_AUTO_INSTALL is set for go-xla in this process and the workers
// it starts. The pinned plugin comes from `make xla`.
func init() {
	if _, set := os.LookupEnv(EnvNoAutoInstall); !set {
		os.Setenv(EnvNoAutoInstall, "1")
	}
	xla.EnableAutoInstall(false)
}

const xlaCompiledIn = true

const xlaMissingReason = ""

// MinPJRTMinor is the PJRT C API minor version of the pjrt_c_api.h go-xla
// v0.4.13 is compiled against (major 0). The API only grows: a plugin with
// a smaller minor version lacks entries of the table go-xla calls into
// (reading past its end), while a larger one is compatible.
const MinPJRTMinor = 104

// loadPJRT dlopens the (already checked) plugin file and checks its PJRT
// API version. go-xla's own warnings (klog) are muted meanwhile: its errors
// come back here and are reported in one line.
func loadPJRT(path string) (version string, err error) {
	klog.SetLogger(logr.Discard())
	defer klog.ClearLogger()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("XLA plugin %s: go-xla panicked loading it: %v", path, r)
		}
	}()
	p, err := pjrt.GetPlugin(path)
	if err != nil {
		return "", fmt.Errorf("XLA plugin %s: loading failed: %s", path, oneLine(err))
	}
	major, minor := p.Version()
	version = fmt.Sprintf("%d.%d", major, minor)
	if major != 0 || minor < MinPJRTMinor {
		return version, fmt.Errorf("XLA plugin %s: PJRT C API v%s, go-xla v0.4.13 needs v0.%d or newer (install the pinned plugin with `make xla`)",
			path, version, MinPJRTMinor)
	}
	return version, nil
}

// newXLAFromFile creates the XLA backend on a loaded plugin file; options
// is the ",key=value" tail of the configuration, if any.
func newXLAFromFile(path, options string) (b compute.Backend, err error) {
	klog.SetLogger(logr.Discard())
	defer klog.ClearLogger()
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("XLA plugin %s: go-xla panicked creating the backend: %v", path, r)
		}
	}()
	b, err = xla.New(path + options)
	if err != nil {
		return nil, fmt.Errorf("XLA plugin %s: creating the backend failed: %s", path, oneLine(err))
	}
	return b, nil
}

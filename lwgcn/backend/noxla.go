//go:build !cgo || noxla || !((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package backend

import (
	"errors"

	"github.com/gomlx/compute"
)

const xlaCompiledIn = false

const xlaMissingReason = "XLA not compiled in (built with the noxla tag, without cgo, or on an unsupported platform)"

// MinPJRTMinor: see the XLA build.
const MinPJRTMinor = 104

func loadPJRT(path string) (string, error) { return "", errors.New(xlaMissingReason) }

func newXLAFromFile(path, options string) (compute.Backend, error) {
	return nil, errors.New(xlaMissingReason)
}

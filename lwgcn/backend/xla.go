//go:build cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package backend

// XLA (PJRT) support with automatic plugin download, as in GoMLX's
// backends/default. Needs cgo at build time.
import _ "github.com/gomlx/go-xla/compute/xla/autoinstall"

const xlaCompiledIn = true

const xlaMissingReason = ""

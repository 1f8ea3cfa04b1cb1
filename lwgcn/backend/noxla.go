//go:build !cgo || noxla || !((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package backend

const xlaCompiledIn = false

const xlaMissingReason = "XLA not compiled in (built with the noxla tag, without cgo, or on an unsupported platform)"

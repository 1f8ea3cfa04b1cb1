// Package pypickle decodes the Python pickles found in graph benchmark files:
// NumPy arrays (numpy.core.multiarray._reconstruct + ndarray.__setstate__, and
// numpy.dtype), SciPy CSR matrices (csr_matrix with its instance dict),
// collections.defaultdict, lists, dicts and tuples, written by Python 2
// (byte strings, which Python 3 must read with encoding='latin1') or Python 3
// (protocols 2 to 5).
//
// The opcode interpreter is github.com/nlpodyssey/gopickle (v0.3.0); this
// package supplies the Python classes through gopickle's FindClass hook and
// turns the results into plain Go values. Python 2 byte strings arrive as Go
// strings holding the raw bytes, which is exactly what latin-1 decoding
// preserves, so array payloads are used byte for byte.
//
// Pickles are untrusted input. Before gopickle sees them, a single pass over
// the opcodes (check.go) rejects the inputs on which gopickle would panic or
// allocate without bound (oversized length prefixes, odd dict item counts,
// empty LONG1, sets, array._array_reconstructor, ...). Only the classes listed
// above can be constructed; nothing is ever executed.
package pypickle

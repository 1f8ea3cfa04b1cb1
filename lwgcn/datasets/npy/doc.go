// Package npy reads NumPy .npy arrays and .npz archives without Python.
//
// It parses the .npy header (magic, version 1.0/2.0/3.0, and the Python-literal
// dict with 'descr', 'fortran_order' and 'shape') itself, reads numeric and
// boolean arrays into raw bytes, converts Fortran-ordered arrays to C order, and
// offers typed accessors (Float32s, Int64s, Bools, ...) that check the dtype.
// Object arrays (descr '|O', written with allow_pickle=True) are returned with
// their pickled payload in Array.Pickle; package pypickle decodes it.
//
// Every error names the file (when known), the npz key and what was wrong.
// Inputs are untrusted: sizes are checked before allocation and memory use is
// bounded by the bytes actually present, so a corrupt header cannot make the
// reader allocate gigabytes.
package npy

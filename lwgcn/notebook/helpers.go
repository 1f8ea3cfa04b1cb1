package notebook

// Must returns v, or panics with err: in a notebook cell the panic stops the
// cell and the headless runner reports it with the cell's index.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Must2 is Must for functions with two results and an error.
func Must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// IfQuick returns quick in quick mode (LWGCN_QUICK set, see Quick) and full
// otherwise: notebooks size their epochs, splits and sweeps with it.
func IfQuick[T any](quick, full T) T {
	if Quick() {
		return quick
	}
	return full
}

// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package dot

// ImplementationName is the name of the registered implementation the node
// runs with ("simd:avx512", ...; "" if none).
func (d *NodeData) ImplementationName() string {
	if d.implementation == nil {
		return ""
	}
	return d.implementation.name
}

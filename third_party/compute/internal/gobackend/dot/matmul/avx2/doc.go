// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// Package avx2 provides AVX2 accelerated matrix multiplication kernels.
package avx2

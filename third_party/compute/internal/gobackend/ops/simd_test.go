// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops_test

import (
	"math"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/ops"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/compute/support/testutil"
)

func runUnaryTestGeneric[T any](t *testing.T, opName string,
	opFn func(f *gobackend.Function, operand compute.Value) (compute.Value, error),
	shape shapes.Shape, inData []T, expected []T) {
	runUnaryTestApprox(t, opName, opFn, shape, inData, expected, 0)
}

func runUnaryTestApprox[T any](t *testing.T, opName string,
	opFn func(f *gobackend.Function, operand compute.Value) (compute.Value, error),
	shape shapes.Shape, inData []T, expected []T, delta float64) {
	t.Helper()
	builder := backend.Builder(opName).(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)

	inNode, err := main.Parameter("x", shape, nil)
	if err != nil {
		t.Fatalf("Failed creating parameter: %+v", err)
	}

	outNode, err := opFn(main, inNode)
	if err != nil {
		t.Fatalf("Failed adding op %s: %+v", opName, err)
	}

	err = main.Return([]compute.Value{outNode}, nil)
	if err != nil {
		t.Fatalf("Return failed: %+v", err)
	}

	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("Compile failed: %+v", err)
	}

	inBuf, err := backend.BufferFromFlatData(0, inData, shape)
	if err != nil {
		t.Fatalf("BufferFromFlatData failed: %+v", err)
	}

	outputs, err := exec.Execute([]compute.Buffer{inBuf}, nil, 0)
	if err != nil {
		t.Fatalf("Execute failed: %+v", err)
	}

	result := outputs[0].(*gobackend.Buffer).Flat.([]T)
	var ok bool
	var diff string
	if delta > 0 {
		ok, diff = testutil.IsInDelta(expected, result, delta)
	} else {
		ok, diff = testutil.IsEqual(expected, result)
	}
	if !ok {
		t.Errorf("Mismatch in %s:\n%s", opName, diff)
	}
}

func runBinaryTestGeneric[T any](t *testing.T, opName string,
	opFn func(f *gobackend.Function, lhs, rhs compute.Value) (compute.Value, error),
	lhsShape shapes.Shape, lhsData []T,
	rhsShape shapes.Shape, rhsData []T,
	expected []T) {
	t.Helper()
	builder := backend.Builder(opName).(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)

	lhsNode, err := main.Parameter("lhs", lhsShape, nil)
	if err != nil {
		t.Fatalf("Failed creating lhs parameter: %+v", err)
	}
	rhsNode, err := main.Parameter("rhs", rhsShape, nil)
	if err != nil {
		t.Fatalf("Failed creating rhs parameter: %+v", err)
	}

	outNode, err := opFn(main, lhsNode, rhsNode)
	if err != nil {
		t.Fatalf("Failed adding op %s: %+v", opName, err)
	}

	err = main.Return([]compute.Value{outNode}, nil)
	if err != nil {
		t.Fatalf("Return failed: %+v", err)
	}

	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("Compile failed: %+v", err)
	}

	lhsBuf, err := backend.BufferFromFlatData(0, lhsData, lhsShape)
	if err != nil {
		t.Fatalf("BufferFromFlatData lhs failed: %+v", err)
	}
	rhsBuf, err := backend.BufferFromFlatData(0, rhsData, rhsShape)
	if err != nil {
		t.Fatalf("BufferFromFlatData rhs failed: %+v", err)
	}

	outputs, err := exec.Execute([]compute.Buffer{lhsBuf, rhsBuf}, nil, 0)
	if err != nil {
		t.Fatalf("Execute failed: %+v", err)
	}

	result := outputs[0].(*gobackend.Buffer).Flat.([]T)
	if ok, diff := testutil.IsEqual(expected, result); !ok {
		t.Errorf("Mismatch in %s:\n%s", opName, diff)
	}
}

func TestSIMDBinaryOps(t *testing.T) {
	// Test partial vector sizes (e.g. 19 elements, where SIMD vector len is 16 or 8).
	n := 19
	s19 := shapes.Make(dtypes.Float32, n)
	sScalar := shapes.Make(dtypes.Float32, 1)

	lhsF32 := make([]float32, n)
	rhsF32 := make([]float32, n)
	for i := range n {
		lhsF32[i] = float32(i*2 + 10)
		rhsF32[i] = float32(i + 1)
	}

	t.Run("Add_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = lhsF32[i] + rhsF32[i]
		}
		runBinaryTestGeneric(t, "Add_Float32", ops.Add, s19, lhsF32, s19, rhsF32, expected)
	})

	t.Run("Add_Float32_ScalarRHS", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = lhsF32[i] + 5.0
		}
		runBinaryTestGeneric(t, "Add_Float32_ScalarRHS", ops.Add, s19, lhsF32, sScalar, []float32{5.0}, expected)
	})

	t.Run("Sub_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = lhsF32[i] - rhsF32[i]
		}
		runBinaryTestGeneric(t, "Sub_Float32", ops.Sub, s19, lhsF32, s19, rhsF32, expected)
	})

	t.Run("Sub_Float32_ScalarLHS", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = 100.0 - rhsF32[i]
		}
		runBinaryTestGeneric(t, "Sub_Float32_ScalarLHS", ops.Sub, sScalar, []float32{100.0}, s19, rhsF32, expected)
	})

	t.Run("Mul_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = lhsF32[i] * rhsF32[i]
		}
		runBinaryTestGeneric(t, "Mul_Float32", ops.Mul, s19, lhsF32, s19, rhsF32, expected)
	})

	t.Run("Div_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = lhsF32[i] / rhsF32[i]
		}
		runBinaryTestGeneric(t, "Div_Float32", ops.Div, s19, lhsF32, s19, rhsF32, expected)
	})

	// Int32 Binary
	s19I32 := shapes.Make(dtypes.Int32, n)
	lhsI32 := make([]int32, n)
	rhsI32 := make([]int32, n)
	for i := range n {
		lhsI32[i] = int32(i*3 + 10)
		rhsI32[i] = int32(i + 2)
	}

	t.Run("Add_Int32", func(t *testing.T) {
		expected := make([]int32, n)
		for i := range n {
			expected[i] = lhsI32[i] + rhsI32[i]
		}
		runBinaryTestGeneric(t, "Add_Int32", ops.Add, s19I32, lhsI32, s19I32, rhsI32, expected)
	})

	t.Run("Mul_Int32", func(t *testing.T) {
		expected := make([]int32, n)
		for i := range n {
			expected[i] = lhsI32[i] * rhsI32[i]
		}
		runBinaryTestGeneric(t, "Mul_Int32", ops.Mul, s19I32, lhsI32, s19I32, rhsI32, expected)
	})

	// BFloat16 Binary
	s19BF := shapes.Make(dtypes.BFloat16, n)
	lhsBF := make([]bfloat16.BFloat16, n)
	rhsBF := make([]bfloat16.BFloat16, n)
	expectedBF := make([]bfloat16.BFloat16, n)
	for i := range n {
		lhsBF[i] = bfloat16.FromFloat32(float32(i*2 + 5))
		rhsBF[i] = bfloat16.FromFloat32(float32(i + 1))
		expectedBF[i] = bfloat16.FromFloat32(lhsBF[i].Float32() + rhsBF[i].Float32())
	}
	t.Run("Add_BFloat16", func(t *testing.T) {
		runBinaryTestGeneric(t, "Add_BFloat16", ops.Add, s19BF, lhsBF, s19BF, rhsBF, expectedBF)
	})

	// Float16 Binary
	s19F16 := shapes.Make(dtypes.Float16, n)
	lhsF16 := make([]float16.Float16, n)
	rhsF16 := make([]float16.Float16, n)
	expectedF16 := make([]float16.Float16, n)
	for i := range n {
		lhsF16[i] = float16.FromFloat32(float32(i*2 + 5))
		rhsF16[i] = float16.FromFloat32(float32(i + 1))
		expectedF16[i] = float16.FromFloat32(lhsF16[i].Float32() * rhsF16[i].Float32())
	}
	t.Run("Mul_Float16", func(t *testing.T) {
		runBinaryTestGeneric(t, "Mul_Float16", ops.Mul, s19F16, lhsF16, s19F16, rhsF16, expectedF16)
	})

	// Max and Min Float32
	t.Run("Max_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = max(lhsF32[i], rhsF32[i])
		}
		runBinaryTestGeneric(t, "Max_Float32", ops.Max, s19, lhsF32, s19, rhsF32, expected)
	})

	t.Run("Min_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = min(lhsF32[i], rhsF32[i])
		}
		runBinaryTestGeneric(t, "Min_Float32", ops.Min, s19, lhsF32, s19, rhsF32, expected)
	})

	// V2V1 Broadcast: [4, 16] op [1, 16]
	{
		A, B := 4, 16
		shapeAB := shapes.Make(dtypes.Float32, A, B)
		shape1B := shapes.Make(dtypes.Float32, 1, B)
		lhsAB := make([]float32, A*B)
		rhs1B := make([]float32, B)
		for i := range A * B {
			lhsAB[i] = float32(i + 1)
		}
		for i := range B {
			rhs1B[i] = float32((i + 1) * 2)
		}

		t.Run("V2V1_Add_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = lhsAB[a*B+b] + rhs1B[b]
				}
			}
			runBinaryTestGeneric(t, "V2V1_Add_Float32", ops.Add, shapeAB, lhsAB, shape1B, rhs1B, expected)
		})

		t.Run("V2V1_Sub_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = lhsAB[a*B+b] - rhs1B[b]
				}
			}
			runBinaryTestGeneric(t, "V2V1_Sub_Float32", ops.Sub, shapeAB, lhsAB, shape1B, rhs1B, expected)
		})

		t.Run("V1V2_Sub_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = rhs1B[b] - lhsAB[a*B+b]
				}
			}
			runBinaryTestGeneric(t, "V1V2_Sub_Float32", ops.Sub, shape1B, rhs1B, shapeAB, lhsAB, expected)
		})

		t.Run("V2V1_Mul_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = lhsAB[a*B+b] * rhs1B[b]
				}
			}
			runBinaryTestGeneric(t, "V2V1_Mul_Float32", ops.Mul, shapeAB, lhsAB, shape1B, rhs1B, expected)
		})

		t.Run("V2V1_Div_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = lhsAB[a*B+b] / rhs1B[b]
				}
			}
			runBinaryTestGeneric(t, "V2V1_Div_Float32", ops.Div, shapeAB, lhsAB, shape1B, rhs1B, expected)
		})

		t.Run("V1V2_Div_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = rhs1B[b] / lhsAB[a*B+b]
				}
			}
			runBinaryTestGeneric(t, "V1V2_Div_Float32", ops.Div, shape1B, rhs1B, shapeAB, lhsAB, expected)
		})

		t.Run("V2V1_Max_Float32", func(t *testing.T) {
			expected := make([]float32, A*B)
			for a := range A {
				for b := range B {
					expected[a*B+b] = max(lhsAB[a*B+b], rhs1B[b])
				}
			}
			runBinaryTestGeneric(t, "V2V1_Max_Float32", ops.Max, shapeAB, lhsAB, shape1B, rhs1B, expected)
		})
	}

	// Fallback test: Int8 is not supported by SIMD, so it must fall back to generic
	t.Run("Fallback_Add_Int8", func(t *testing.T) {
		s19I8 := shapes.Make(dtypes.Int8, n)
		lhsI8 := make([]int8, n)
		rhsI8 := make([]int8, n)
		expected := make([]int8, n)
		for i := range n {
			lhsI8[i] = int8(i)
			rhsI8[i] = int8(i * 2)
			expected[i] = lhsI8[i] + rhsI8[i]
		}
		runBinaryTestGeneric(t, "Fallback_Add_Int8", ops.Add, s19I8, lhsI8, s19I8, rhsI8, expected)
	})
}

func TestSIMDUnaryOps(t *testing.T) {
	n := 19
	s19 := shapes.Make(dtypes.Float32, n)
	inF32 := make([]float32, n)
	for i := range n {
		inF32[i] = float32(i)*0.2 - 1.8
	}

	t.Run("Abs_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = float32(math.Abs(float64(inF32[i])))
		}
		runUnaryTestGeneric(t, "Abs_Float32", ops.Abs, s19, inF32, expected)
	})

	t.Run("Neg_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			expected[i] = -inF32[i]
		}
		runUnaryTestGeneric(t, "Neg_Float32", ops.Neg, s19, inF32, expected)
	})

	t.Run("Sqrt_Float32", func(t *testing.T) {
		posIn := make([]float32, n)
		expected := make([]float32, n)
		for i := range n {
			posIn[i] = float32(i + 1)
			expected[i] = float32(math.Sqrt(float64(posIn[i])))
		}
		runUnaryTestGeneric(t, "Sqrt_Float32", ops.Sqrt, s19, posIn, expected)
	})

	t.Run("Exp_Float32", func(t *testing.T) {
		in := make([]float32, n)
		expected := make([]float32, n)
		for i := range n {
			in[i] = float32(i)*0.1 - 1.0
			expected[i] = float32(math.Exp(float64(in[i])))
		}
		runUnaryTestApprox(t, "Exp_Float32", ops.Exp, s19, in, expected, 1e-4)
	})

	t.Run("Logistic_Float32", func(t *testing.T) {
		in := make([]float32, n)
		expected := make([]float32, n)
		for i := range n {
			in[i] = float32(i)*0.2 - 2.0
			expected[i] = float32(1.0 / (1.0 + math.Exp(-float64(in[i]))))
		}
		runUnaryTestApprox(t, "Logistic_Float32", ops.Logistic, s19, in, expected, 1e-4)
	})

	t.Run("Tanh_Float32", func(t *testing.T) {
		in := make([]float32, n)
		expected := make([]float32, n)
		for i := range n {
			in[i] = float32(i)*0.3 - 2.5
			expected[i] = float32(math.Tanh(float64(in[i])))
		}
		runUnaryTestApprox(t, "Tanh_Float32", ops.Tanh, s19, in, expected, 1e-4)
	})

	t.Run("Erf_Float32", func(t *testing.T) {
		in := make([]float32, n)
		expected := make([]float32, n)
		for i := range n {
			in[i] = float32(i)*0.2 - 2.0
			expected[i] = float32(math.Erf(float64(in[i])))
		}
		runUnaryTestApprox(t, "Erf_Float32", ops.Erf, s19, in, expected, 1e-4)
	})

	// Int32 Unary
	s19I32 := shapes.Make(dtypes.Int32, n)
	inI32 := make([]int32, n)
	for i := range n {
		inI32[i] = int32(i - 10)
	}

	t.Run("Abs_Int32", func(t *testing.T) {
		expected := make([]int32, n)
		for i := range n {
			val := inI32[i]
			if val < 0 {
				val = -val
			}
			expected[i] = val
		}
		runUnaryTestGeneric(t, "Abs_Int32", ops.Abs, s19I32, inI32, expected)
	})

	t.Run("Neg_Int32", func(t *testing.T) {
		expected := make([]int32, n)
		for i := range n {
			expected[i] = -inI32[i]
		}
		runUnaryTestGeneric(t, "Neg_Int32", ops.Neg, s19I32, inI32, expected)
	})

	t.Run("Sign_Float32", func(t *testing.T) {
		expected := make([]float32, n)
		for i := range n {
			switch {
			case inF32[i] < 0:
				expected[i] = -1
			case inF32[i] > 0:
				expected[i] = 1
			default:
				expected[i] = 0
			}
		}
		runUnaryTestGeneric(t, "Sign_Float32", ops.Sign, s19, inF32, expected)
	})

	t.Run("Sign_Int32", func(t *testing.T) {
		expected := make([]int32, n)
		for i := range n {
			switch {
			case inI32[i] < 0:
				expected[i] = -1
			case inI32[i] > 0:
				expected[i] = 1
			default:
				expected[i] = 0
			}
		}
		runUnaryTestGeneric(t, "Sign_Int32", ops.Sign, s19I32, inI32, expected)
	})

	// Fallback test: Int8 is not supported by SIMD, so it must fall back to generic
	t.Run("Fallback_Sign_Int8", func(t *testing.T) {
		s19I8 := shapes.Make(dtypes.Int8, n)
		inI8 := make([]int8, n)
		expected := make([]int8, n)
		for i := range n {
			inI8[i] = int8(i - 10)
			switch {
			case inI8[i] < 0:
				expected[i] = -1
			case inI8[i] > 0:
				expected[i] = 1
			default:
				expected[i] = 0
			}
		}
		runUnaryTestGeneric(t, "Fallback_Sign_Int8", ops.Sign, s19I8, inI8, expected)
	})
}


func TestSIMDReduceOps(t *testing.T) {
	// Shapes for testing:
	// Leading: [4, 16] -> reduce axis 0 -> [16]
	// Trailing: [4, 16] -> reduce axis 1 -> [4]
	// All: [64] -> reduce axis 0 -> [1]

	t.Run("ReduceLeading_Float32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float32, 4, 16)
		in := make([]float32, 64)
		for i := range 64 {
			in[i] = float32(i + 1)
		}
		expectedSum := make([]float32, 16)
		expectedMax := make([]float32, 16)
		for a := range 4 {
			for b := range 16 {
				expectedSum[b] += in[a*16+b]
				if a == 0 || in[a*16+b] > expectedMax[b] {
					expectedMax[b] = in[a*16+b]
				}
			}
		}
		runReduceTest(t, "ReduceSum_Leading_Float32", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
		runReduceTest(t, "ReduceMax_Leading_Float32", ops.ReduceMax, sIn, in, []int{0}, expectedMax)
	})

	t.Run("ReduceTrailing_Float32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float32, 4, 16)
		in := make([]float32, 64)
		for i := range 64 {
			in[i] = float32(i + 1)
		}
		expectedSum := make([]float32, 4)
		for a := range 4 {
			for b := range 16 {
				expectedSum[a] += in[a*16+b]
			}
		}
		runReduceTest(t, "ReduceSum_Trailing_Float32", ops.ReduceSum, sIn, in, []int{1}, expectedSum)
	})

	t.Run("ReduceAll_Float32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float32, 64)
		in := make([]float32, 64)
		var expectedSum float32
		for i := range 64 {
			in[i] = float32(i + 1)
			expectedSum += in[i]
		}
		runReduceTest(t, "ReduceSum_All_Float32", ops.ReduceSum, sIn, in, []int{0}, []float32{expectedSum})
	})

	t.Run("ReduceLeading_Float64", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float64, 4, 16)
		in := make([]float64, 64)
		for i := range 64 {
			in[i] = float64(i + 1)
		}
		expectedSum := make([]float64, 16)
		for a := range 4 {
			for b := range 16 {
				expectedSum[b] += in[a*16+b]
			}
		}
		runReduceTest(t, "ReduceSum_Leading_Float64", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
	})

	t.Run("ReduceLeading_Int32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Int32, 4, 16)
		in := make([]int32, 64)
		for i := range 64 {
			in[i] = int32(i + 1)
		}
		expectedSum := make([]int32, 16)
		for a := range 4 {
			for b := range 16 {
				expectedSum[b] += in[a*16+b]
			}
		}
		runReduceTest(t, "ReduceSum_Leading_Int32", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
	})

	t.Run("ReduceLeading_Int8", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Int8, 4, 16)
		in := make([]int8, 64)
		for i := range 64 {
			in[i] = int8(i % 10)
		}
		expectedSum := make([]int8, 16)
		for a := range 4 {
			for b := range 16 {
				expectedSum[b] += in[a*16+b]
			}
		}
		runReduceTest(t, "ReduceSum_Leading_Int8", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
	})

	t.Run("ReduceLeading_BFloat16", func(t *testing.T) {
		sIn := shapes.Make(dtypes.BFloat16, 4, 16)
		in := make([]bfloat16.BFloat16, 64)
		for i := range 64 {
			in[i] = bfloat16.FromFloat32(float32(i + 1))
		}
		expectedSum := make([]bfloat16.BFloat16, 16)
		for b := range 16 {
			var sum float32
			for a := range 4 {
				sum += in[a*16+b].Float32()
			}
			expectedSum[b] = bfloat16.FromFloat32(sum)
		}
		runReduceTest(t, "ReduceSum_Leading_BFloat16", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
	})

	t.Run("ReduceLeading_Float16", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float16, 4, 16)
		in := make([]float16.Float16, 64)
		for i := range 64 {
			in[i] = float16.FromFloat32(float32(i + 1))
		}
		expectedSum := make([]float16.Float16, 16)
		for b := range 16 {
			var sum float32
			for a := range 4 {
				sum += in[a*16+b].Float32()
			}
			expectedSum[b] = float16.FromFloat32(sum)
		}
		runReduceTest(t, "ReduceSum_Leading_Float16", ops.ReduceSum, sIn, in, []int{0}, expectedSum)
	})

	t.Run("ReduceMin_All_Float32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float32, 64)
		in := make([]float32, 64)
		for i := range 64 {
			in[i] = float32(i + 5)
		}
		in[37] = -12.0
		runReduceTest(t, "ReduceMin_All_Float32", ops.ReduceMin, sIn, in, []int{0}, []float32{-12.0})
	})

	t.Run("ReduceProduct_All_Float32", func(t *testing.T) {
		sIn := shapes.Make(dtypes.Float32, 6)
		in := []float32{1, 2, 3, 4, 5, 6}
		runReduceTest(t, "ReduceProduct_All_Float32", ops.ReduceProduct, sIn, in, []int{0}, []float32{720})
	})
}

func runScatterTest[T any](t *testing.T, opName string,
	scatterFn func(f *gobackend.Function, operand, indices, updates compute.Value, indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterAxesToOperandAxes []int, indicesAreSorted, uniqueIndices bool) (compute.Value, error),
	operandShape, indicesShape, updatesShape shapes.Shape,
	operandData []T, indicesData []int32, updatesData []T,
	indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterAxesToOperandAxes []int,
	expected []T) {
	t.Helper()
	builder := backend.Builder(opName).(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)

	opNode, err := main.Parameter("operand", operandShape, nil)
	if err != nil {
		t.Fatalf("Failed creating operand param: %+v", err)
	}
	idxNode, err := main.Parameter("indices", indicesShape, nil)
	if err != nil {
		t.Fatalf("Failed creating indices param: %+v", err)
	}
	updNode, err := main.Parameter("updates", updatesShape, nil)
	if err != nil {
		t.Fatalf("Failed creating updates param: %+v", err)
	}

	outNode, err := scatterFn(main, opNode, idxNode, updNode, indexVectorAxis, updateWindowAxes, insertedWindowAxes, scatterAxesToOperandAxes, false, false)
	if err != nil {
		t.Fatalf("Scatter op failed: %+v", err)
	}

	err = main.Return([]compute.Value{outNode}, nil)
	if err != nil {
		t.Fatalf("Return failed: %+v", err)
	}

	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("Compile failed: %+v", err)
	}

	opBuf, err := backend.BufferFromFlatData(0, operandData, operandShape)
	if err != nil {
		t.Fatalf("BufferFromFlatData operand failed: %+v", err)
	}
	idxBuf, err := backend.BufferFromFlatData(0, indicesData, indicesShape)
	if err != nil {
		t.Fatalf("BufferFromFlatData indices failed: %+v", err)
	}
	updBuf, err := backend.BufferFromFlatData(0, updatesData, updatesShape)
	if err != nil {
		t.Fatalf("BufferFromFlatData updates failed: %+v", err)
	}

	outputs, err := exec.Execute([]compute.Buffer{opBuf, idxBuf, updBuf}, nil, 0)
	if err != nil {
		t.Fatalf("Execute failed: %+v", err)
	}

	outFlat := outputs[0].(*gobackend.Buffer).Flat.([]T)

	if ok, diff := testutil.IsEqual(expected, outFlat); !ok {
		t.Errorf("Mismatch in %s:\n%s", opName, diff)
	}
}

func TestSIMDScatterOps(t *testing.T) {
	// Contiguous window slice: operand is [4, 8], indices is [2, 1], updates is [2, 8].
	// Scatter along axis 0, window axis is 1.
	operandShape := shapes.Make(dtypes.Float32, 4, 8)
	indicesShape := shapes.Make(dtypes.Int32, 2, 1)
	updatesShape := shapes.Make(dtypes.Float32, 2, 8)

	indicesData := []int32{1, 3}

	t.Run("ScatterSum_Float32", func(t *testing.T) {
		opData := make([]float32, 32)
		for i := range opData {
			opData[i] = 1.0
		}
		updData := make([]float32, 16)
		for i := range updData {
			updData[i] = float32(i + 10)
		}
		expected := make([]float32, 32)
		copy(expected, opData)
		// row 1 gets updData[0:8], row 3 gets updData[8:16]
		for j := 0; j < 8; j++ {
			expected[1*8+j] += updData[j]
			expected[3*8+j] += updData[8+j]
		}
		runScatterTest(t, "ScatterSum_Float32", ops.ScatterSum,
			operandShape, indicesShape, updatesShape,
			opData, indicesData, updData,
			1, []int{1}, []int{0}, []int{0},
			expected)
	})

	t.Run("ScatterMax_Float32", func(t *testing.T) {
		opData := make([]float32, 32)
		for i := range opData {
			opData[i] = 15.0
		}
		updData := make([]float32, 16)
		for i := range updData {
			updData[i] = float32(i + 10)
		}
		expected := make([]float32, 32)
		copy(expected, opData)
		for j := 0; j < 8; j++ {
			expected[1*8+j] = max(expected[1*8+j], updData[j])
			expected[3*8+j] = max(expected[3*8+j], updData[8+j])
		}
		runScatterTest(t, "ScatterMax_Float32", ops.ScatterMax,
			operandShape, indicesShape, updatesShape,
			opData, indicesData, updData,
			1, []int{1}, []int{0}, []int{0},
			expected)
	})

	t.Run("ScatterMin_Float32", func(t *testing.T) {
		opData := make([]float32, 32)
		for i := range opData {
			opData[i] = 15.0
		}
		updData := make([]float32, 16)
		for i := range updData {
			updData[i] = float32(i + 10)
		}
		expected := make([]float32, 32)
		copy(expected, opData)
		for j := 0; j < 8; j++ {
			expected[1*8+j] = min(expected[1*8+j], updData[j])
			expected[3*8+j] = min(expected[3*8+j], updData[8+j])
		}
		runScatterTest(t, "ScatterMin_Float32", ops.ScatterMin,
			operandShape, indicesShape, updatesShape,
			opData, indicesData, updData,
			1, []int{1}, []int{0}, []int{0},
			expected)
	})

	t.Run("ScatterSum_BFloat16", func(t *testing.T) {
		opShapeBF16 := shapes.Make(dtypes.BFloat16, 4, 8)
		updShapeBF16 := shapes.Make(dtypes.BFloat16, 2, 8)
		opData := make([]bfloat16.BFloat16, 32)
		for i := range opData {
			opData[i] = bfloat16.FromFloat32(1.0)
		}
		updData := make([]bfloat16.BFloat16, 16)
		for i := range updData {
			updData[i] = bfloat16.FromFloat32(float32(i + 10))
		}
		expected := make([]bfloat16.BFloat16, 32)
		copy(expected, opData)
		for j := 0; j < 8; j++ {
			expected[1*8+j] = bfloat16.FromFloat32(expected[1*8+j].Float32() + updData[j].Float32())
			expected[3*8+j] = bfloat16.FromFloat32(expected[3*8+j].Float32() + updData[8+j].Float32())
		}
		runScatterTest(t, "ScatterSum_BFloat16", ops.ScatterSum,
			opShapeBF16, indicesShape, updShapeBF16,
			opData, indicesData, updData,
			1, []int{1}, []int{0}, []int{0},
			expected)
	})
}

package gokernels

import (
	"slices"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeTranspose, gb.PriorityUser, execTranspose)
}

// transposeBlock is the side of the square blocks transpose2D copies: a
// block's rows and columns both stay in cache lines while it is written.
const transposeBlock = 16

// execTranspose runs Transpose(x, [1, 0]) of 4-byte values (float32,
// int32, uint32) as a blocked copy; other transposes go to the backend.
// It is the same data movement as the backend's, so the same result.
func execTranspose(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	if !transposeK.On() {
		return nil, gb.ErrFallback
	}
	perm, ok := node.Data.([]int)
	x := inputs[0]
	if !ok || !slices.Equal(perm, []int{1, 0}) || x.RawShape.Rank() != 2 || x.RawShape.DType.Size() != 4 ||
		(x.RawShape.DType != dtypes.Float32 && x.RawShape.DType != dtypes.Int32 && x.RawShape.DType != dtypes.Uint32) {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	transposesRun.Add(1)
	h, w := x.RawShape.Dimensions[0], x.RawShape.Dimensions[1]
	switch v := x.Flat.(type) {
	case []float32:
		transpose2D32(out.Flat.([]float32), v, h, w)
	case []int32:
		transpose2D32(out.Flat.([]int32), v, h, w)
	case []uint32:
		transpose2D32(out.Flat.([]uint32), v, h, w)
	default:
		backend.PutBuffer(out)
		return nil, gb.ErrFallback
	}
	return out, nil
}

// transpose2D writes out [w, h] = inᵀ for in [h, w], block by block; inside a
// block, 4 x 4 tiles go through registers (4 loads of each input row, 4
// stores to each output row).
func transpose2D[T any](out, in []T, h, w int) {
	const b = transposeBlock
	for r0 := 0; r0 < h; r0 += b {
		r1 := min(r0+b, h)
		for c0 := 0; c0 < w; c0 += b {
			c1 := min(c0+b, w)
			r := r0
			for ; r+4 <= r1; r += 4 {
				i0, i1, i2, i3 := in[r*w:(r+1)*w], in[(r+1)*w:(r+2)*w], in[(r+2)*w:(r+3)*w], in[(r+3)*w:(r+4)*w]
				c := c0
				for ; c+4 <= c1; c += 4 {
					a0, a1, a2, a3 := i0[c:c+4:c+4], i1[c:c+4:c+4], i2[c:c+4:c+4], i3[c:c+4:c+4]
					o0, o1, o2, o3 := out[c*h+r:c*h+r+4:c*h+r+4], out[(c+1)*h+r:(c+1)*h+r+4:(c+1)*h+r+4],
						out[(c+2)*h+r:(c+2)*h+r+4:(c+2)*h+r+4], out[(c+3)*h+r:(c+3)*h+r+4:(c+3)*h+r+4]
					o0[0], o0[1], o0[2], o0[3] = a0[0], a1[0], a2[0], a3[0]
					o1[0], o1[1], o1[2], o1[3] = a0[1], a1[1], a2[1], a3[1]
					o2[0], o2[1], o2[2], o2[3] = a0[2], a1[2], a2[2], a3[2]
					o3[0], o3[1], o3[2], o3[3] = a0[3], a1[3], a2[3], a3[3]
				}
				for ; c < c1; c++ {
					out[c*h+r], out[c*h+r+1], out[c*h+r+2], out[c*h+r+3] = i0[c], i1[c], i2[c], i3[c]
				}
			}
			for ; r < r1; r++ {
				for c := c0; c < c1; c++ {
					out[c*h+r] = in[r*w+c]
				}
			}
		}
	}
}

// transpose2D32 is transpose2D of 4-byte values, with its full 8 x 8 tiles
// through SIMD shuffles where the CPU has them (transposeTile8; the values'
// bits are moved, whatever their type).
func transpose2D32[T float32 | int32 | uint32](out, in []T, h, w int) {
	if !haveTile8 || h < 8 || w < 8 {
		transpose2D(out, in, h, w)
		return
	}
	o, x := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(out))), len(out)),
		unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(in))), len(in))
	const b = transposeBlock
	for r0 := 0; r0 < h; r0 += b {
		r1 := min(r0+b, h)
		for c0 := 0; c0 < w; c0 += b {
			c1 := min(c0+b, w)
			for r := r0; r < r1; r += 8 {
				for c := c0; c < c1; c += 8 {
					if r+8 <= r1 && c+8 <= c1 {
						transposeTile8(o, x, h, w, r, c)
						continue
					}
					for i := r; i < min(r+8, r1); i++ {
						for j := c; j < min(c+8, c1); j++ {
							o[j*h+i] = x[i*w+j]
						}
					}
				}
			}
		}
	}
}

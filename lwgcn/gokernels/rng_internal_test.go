package gokernels

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// pcgState is p's state (hi, lo) from its MarshalBinary ("pcg:" and the two
// words, big-endian).
func pcgState(t *testing.T, p *rand.PCG) (uint64, uint64) {
	t.Helper()
	m, err := p.MarshalBinary()
	if err != nil || len(m) != 20 {
		t.Fatalf("PCG.MarshalBinary: %d bytes, %v", len(m), err)
	}
	return binary.BigEndian.Uint64(m[4:12]), binary.BigEndian.Uint64(m[12:20])
}

// fillBytes draws what math/rand/v2's PCG draws and leaves its state;
// pcgAdvance(n) lands where n draws do.
func TestPCGStreamAndAdvance(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {42, 7}, {^uint64(0), 1 << 63}} {
		p := rand.NewPCG(seed[0], seed[1])
		b := make([]byte, 8*1001+5) // 4 chains of 250 draws, then 1 more and 5 bytes
		hi, lo := fillBytes(b, seed[0], seed[1])
		for i := 0; i < 1001; i++ {
			if got, want := binary.LittleEndian.Uint64(b[8*i:]), p.Uint64(); got != want {
				t.Fatalf("seed %v, draw %d: %#x, math/rand/v2's PCG %#x", seed, i, got, want)
			}
		}
		v := p.Uint64()
		for i := range 5 {
			if b[8008+i] != byte(v>>(8*i)) {
				t.Fatalf("seed %v: tail byte %d is %#x, want %#x", seed, i, b[8008+i], byte(v>>(8*i)))
			}
		}
		if wh, wl := pcgState(t, p); hi != wh || lo != wl {
			t.Fatalf("seed %v: state after the draws (%#x, %#x), PCG's (%#x, %#x)", seed, hi, lo, wh, wl)
		}
		for _, n := range []uint64{0, 1, 2, 3, 1000, 1001, 65537} {
			q := rand.NewPCG(seed[0], seed[1])
			for range n {
				q.Uint64()
			}
			wh, wl := pcgState(t, q)
			if h, l := pcgAdvance(seed[0], seed[1], n); h != wh || l != wl {
				t.Errorf("seed %v: pcgAdvance(%d) = (%#x, %#x), %d draws give (%#x, %#x)", seed, n, h, l, n, wh, wl)
			}
		}
	}
}

// BenchmarkFillBytes times the random bits of a dropout mask on Cora's
// GCNII layers ([2709, 64] float32: 693 KB) drawn through math/rand/v2's PCG
// (the kernel before: 8 bytes per Uint64 call) and in fillBytes' 4
// interleaved chains.
func BenchmarkFillBytes(b *testing.B) {
	buf := make([]byte, 4*2709*64)
	b.Run("rand.PCG", func(b *testing.B) {
		p := rand.NewPCG(1, 2)
		for b.Loop() {
			for i := 0; i+8 <= len(buf); i += 8 {
				binary.LittleEndian.PutUint64(buf[i:], p.Uint64())
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(buf)/8), "ns/draw")
	})
	b.Run("chains", func(b *testing.B) {
		hi, lo := uint64(1), uint64(2)
		for b.Loop() {
			hi, lo = fillBytes(buf, hi, lo)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(buf)/8), "ns/draw")
	})
}

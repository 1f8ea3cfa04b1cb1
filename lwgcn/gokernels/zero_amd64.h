// ZERO_Z0_Z15 sets the 16 accumulators Z0-Z15 to +0 (the assembly loops'
// sums start from zero, as compute's kernels' do).
#define ZERO_Z0_Z15 \
	VXORPS Z0, Z0, Z0 \
	VXORPS Z1, Z1, Z1 \
	VXORPS Z2, Z2, Z2 \
	VXORPS Z3, Z3, Z3 \
	VXORPS Z4, Z4, Z4 \
	VXORPS Z5, Z5, Z5 \
	VXORPS Z6, Z6, Z6 \
	VXORPS Z7, Z7, Z7 \
	VXORPS Z8, Z8, Z8 \
	VXORPS Z9, Z9, Z9 \
	VXORPS Z10, Z10, Z10 \
	VXORPS Z11, Z11, Z11 \
	VXORPS Z12, Z12, Z12 \
	VXORPS Z13, Z13, Z13 \
	VXORPS Z14, Z14, Z14 \
	VXORPS Z15, Z15, Z15

// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package xla

import (
	"fmt"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/distributed"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/compute/support/humanize"
	"github.com/gomlx/compute/support/xslices"
	"github.com/gomlx/go-xla/pjrt"
	"github.com/pkg/errors"
	"k8s.io/klog/v2"
)

// Executable implements the compute.Executable for XLA/PJRT github.com/gomlx/gopjrt.
type Executable struct {
	backend         *Backend
	exec            *pjrt.LoadedExecutable
	name            string
	parameterNames  []string
	parameterShapes []shapes.Shape
	parameterSpecs  []*compute.ShardingSpec
	outputShapes    []shapes.Shape
	outputSpecs     []*compute.ShardingSpec

	distStrategy     distributed.Strategy
	numDevices       int
	deviceAssignment []int
	portable         bool

	// programBytes is the size of the StableHLO program compiled.
	programBytes int
}

// ProgramBytes is the size in bytes of the StableHLO program this executable
// was compiled from: what a caller reports beside its op count to follow a
// graph's size through changes (the program itself is not kept).
func (e *Executable) ProgramBytes() int { return e.programBytes }

func (b *Builder) Compile() (compute.Executable, error) {
	if err := b.CheckValid(); err != nil {
		return nil, err
	}
	if !b.mainFn.returned {
		return nil, errors.Errorf(
			"backend %q, computation %q: Main().Return() must be called before Compile()",
			BackendName, b.name)
	}

	// Get output shapes from the main function
	outputShapes := make([]shapes.Shape, len(b.mainFn.outputs))
	for i, node := range b.mainFn.outputs {
		outputShapes[i] = node.shape
	}

	// Build the StableHLO program
	program, err := b.builder.Build()
	if err != nil {
		return nil, errors.WithMessagef(err,
			"backend %q: failed to build StableHLO from computation %q", BackendName, b.name)
	}
	if klog.V(2).Enabled() { //nolint:mnd // Log-level numbers are ok.
		klog.Infof("StableHLO program:\n%s\n", program)
	}

	compileConfig := b.backend.client.Compile().WithStableHLO(program)
	var portable bool
	switch b.distStrategy {
	case distributed.SPMD:
		compileConfig = compileConfig.
			WithSPMD(b.numDevices).
			WithDeviceAssignment(b.deviceAssignment)
	case distributed.AutoSharding:
		compileConfig = compileConfig.
			WithShardy(b.numDevices).
			WithDeviceAssignment(b.deviceAssignment)
	case distributed.None:
		// Device Assignment is optional, only if set.
		// Otherwise, the compilation is "portable" and can be executed on any device.
		if b.deviceAssignment != nil {
			compileConfig = compileConfig.
				WithDeviceAssignment(b.deviceAssignment)
		} else {
			portable = true
		}
	}
	var start time.Time
	if klog.V(1).Enabled() {
		start = time.Now()
		klog.Infof("Compiling %q", b.name)
	}
	exec, err := compileConfig.Done()
	if err != nil {
		return nil, errors.WithMessagef(err,
			"backend %q: failed to compile computation %q", BackendName, b.name)
	}
	if klog.V(1).Enabled() {
		klog.Infof("Compiled in %s", time.Since(start))
		klog.Infof("Memory usage: On Device: [%s]; On Host: [%s]",
			renderMemStats(exec.OnDeviceMemoryUsageStats),
			renderMemStats(exec.OnHostMemoryUsageStats))
	}

	return &Executable{
		backend:         b.backend,
		exec:            exec,
		name:            b.name,
		parameterNames:  b.mainFn.parameterNames,
		parameterShapes: b.mainFn.parameterShapes,
		parameterSpecs:  b.mainFn.parameterSpecs,
		outputShapes:    outputShapes,

		distStrategy:     b.distStrategy,
		numDevices:       max(1, len(b.deviceAssignment)),
		deviceAssignment: b.deviceAssignment,
		portable:         portable,
		programBytes:     len(program),
	}, nil
}

// renderMemStats renders the memory usage stats in a human-readable format.
func renderMemStats(stats pjrt.ExecutableMemoryUsageStats) string {
	return fmt.Sprintf("Code:%s, Inputs:%s, Outputs:%s, Aliases:%s, Temporary:%s",
		humanize.Bytes(stats.GeneratedCode), humanize.Bytes(stats.Inputs),
		humanize.Bytes(stats.Outputs), humanize.Bytes(stats.Aliases),
		humanize.Bytes(stats.Temporary))
}

// CheckValid returns an error if the backend or the executable are not ok -- e.g.: if they have been finalized or the builder
// has already been compiled.
func (e *Executable) CheckValid() error {
	if e == nil || e.exec == nil || e.backend == nil {
		return errors.Errorf("backend %q: Executable nil or already finalized", BackendName)
	}
	return e.backend.CheckValid()
}

// Finalize immediately frees resources associated with the executable.
func (e *Executable) Finalize() {
	if e == nil || e.exec == nil || e.backend == nil {
		return
	}
	err := e.exec.Destroy()
	if err != nil {
		klog.Warningf("Error while destroying executable %q on backend %q: %+v", e.name, BackendName, err)
	}
	e.exec = nil
	e.backend = nil
	e.parameterNames = nil
	e.parameterShapes = nil
	e.outputShapes = nil
}

// Inputs returns the parameters' names and shapes, in order created by the Builder.Parameter calls.
func (e *Executable) Inputs() (names []string, inputShapes []shapes.Shape) {
	return e.parameterNames, e.parameterShapes
}

// Outputs return the computation's output shapes, in the order given to the Builder.Compile call.
func (e *Executable) Outputs() (outputShapes []shapes.Shape) {
	return e.outputShapes
}

// Execute the computation.
// The number and shapes of the inputs must match those of the Executable parameters (returned by [Executable.Inputs]).
//
// The inputs marked as donate will become invalid after use.
// This is useful if the input buffer is no longer needed or if updating a variable
// so its Buffer space can be reused as an output Buffer.
//
// Donated buffers are no longer valid after the call.
// If donate is nil, it is assumed to be false for all buffers, and no buffer is donated.
//
// For portable computations (not compiled with a fixed device assignment), the execution runs on the defaultDevice.
// For non-portable computations (where the device assignment is fixed), the defaultDevice is ignored.
//
// For SPMD distributed computations (see [Builder.DistributedSPMD]), the executable is replicated on each device.
// There will be multiple inputs per executable parameter, one per device.
// They are organized as "device-major", that is the input for parameter i on device j is given by inputs[j*numParams + i].
func (e *Executable) Execute(
	inputs []compute.Buffer,
	donate []bool,
	defaultDevice compute.DeviceNum,
) ([]compute.Buffer, error) {
	if err := e.CheckValid(); err != nil {
		return nil, err
	}
	numParams := len(e.parameterShapes)
	numDevices := e.numDevices
	if len(inputs) != numParams*numDevices {
		return nil, errors.Errorf(
			"backend %q: wrong number of parameters to Execute %q: %d given, %d * %d expected",
			BackendName, e.name, len(inputs), numParams, numDevices)
	}
	if len(donate) > 0 && len(donate) != numParams*numDevices {
		return nil, errors.Errorf(
			"backend %q: wrong number of donate values to Execute %q: %d given, nil or %d * %d expected",
			BackendName, e.name, len(donate), numParams, numDevices)
	}
	pInputs := xslices.Map(inputs, e.backend.castToPJRT)
	for i, input := range pInputs {
		inputDType, err := input.DType()
		if err != nil {
			return nil, errors.WithMessagef(err, "backend %q: failed to get dtype for parameter %d to Execute %q", BackendName, i, e.name)
		}
		if inputDType != e.parameterShapes[i%numParams].DType {
			inputDims, err := input.Dimensions()
			if err != nil {
				return nil, errors.WithMessagef(err, "backend %q: failed to get dimensions for parameter %d to Execute %q", BackendName, i, e.name)
			}
			inputShape := shapes.Make(inputDType, inputDims...)
			return nil, errors.Errorf(
				"backend %q: wrong shape for parameter %d to Execute %q: %v given, %v expected",
				BackendName, i, e.name, inputShape, e.parameterShapes[i])
		}
	}
	execBuilder := e.exec.Execute(pInputs...)
	if len(donate) == 0 {
		execBuilder = execBuilder.DonateNone()
	} else {
		execBuilder = execBuilder.SetDonate(donate)
	}
	if e.portable {
		execBuilder = execBuilder.OnDeviceByNum(int(defaultDevice))
	}

	var pOutputs []*pjrt.Buffer
	var err error
	if klog.V(1).Enabled() {
		klog.Infof("Executing %q", e.name)
		start := time.Now()
		pOutputs, err = execBuilder.Done()
		elapsed := time.Since(start)
		klog.Infof("Executed in %s", elapsed)
	} else {
		pOutputs, err = execBuilder.Done()
	}
	if err != nil {
		return nil, errors.WithMessagef(err, "backend %q: failed to execute computation %q", BackendName, e.name)
	}
	return xslices.Map(pOutputs, func(pb *pjrt.Buffer) compute.Buffer {
		return &Buffer{backend: e.backend, pjrtBuffer: pb}
	}), nil
}

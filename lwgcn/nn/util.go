package nn

import "github.com/gomlx/gomlx/support/exceptions"

func panicf(format string, args ...any) { exceptions.Panicf(format, args...) }

package datasets

// SetMaxUnpinnedBytes lowers the download cap of unpinned files for a test
// and returns the function that restores it.
func SetMaxUnpinnedBytes(n int64) func() {
	old := maxUnpinnedBytes
	maxUnpinnedBytes = n
	return func() { maxUnpinnedBytes = old }
}

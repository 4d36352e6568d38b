module fifteen

go 1.26.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/spf13/pflag v1.0.10
	golang.org/x/sys v0.49.0
)

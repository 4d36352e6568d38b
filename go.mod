module fifteen

go 1.26.0

require github.com/spf13/pflag v1.0.10

module fifteen

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/gdamore/tcell/v2 v2.13.10
	github.com/klauspost/compress v1.20.3
	github.com/spf13/pflag v1.0.10
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/gdamore/encoding v1.0.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/lucasb-eyer/go-colorful v1.3.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)

require (
	golang.org/x/image v0.47.0
	golang.org/x/text v0.43.0 // indirect
)

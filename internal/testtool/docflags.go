package testtool

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// CheckDocFlags checks that the tables of the Markdown file at path list,
// under the heading, every flag of fs and no other (issue 77: the docs had
// drifted from the commands).
func CheckDocFlags(t testing.TB, fs *pflag.FlagSet, path, heading string) {
	t.Helper()
	documented := docFlags(t, path, heading)
	var defined []string
	fs.VisitAll(func(f *pflag.Flag) { defined = append(defined, "--"+f.Name) })
	slices.Sort(documented)
	slices.Sort(defined)
	if documented = slices.Compact(documented); !slices.Equal(documented, defined) {
		t.Errorf("%s lists %s;\nthe command takes %s", path, strings.Join(documented, " "), strings.Join(defined, " "))
	}
}

// docFlags returns the flags that the tables of the Markdown file at path
// list under the heading (a line that starts with it), up to the next
// heading of its level or above: every --NAME in a row's first cell.
func docFlags(t testing.TB, path, heading string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	level := strings.IndexFunc(heading, func(r rune) bool { return r != '#' })
	var flags []string
	in := false
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "#") {
			depth := strings.IndexFunc(line, func(r rune) bool { return r != '#' })
			switch {
			case strings.HasPrefix(line, heading):
				in = true
			case in && depth <= level:
				return flags
			}
			continue
		}
		if cells := strings.Split(line, "|"); in && len(cells) > 2 {
			flags = append(flags, docFlag.FindAllString(cells[1], -1)...)
		}
	}
	return flags
}

// docFlag is a flag's name as the docs write it.
var docFlag = regexp.MustCompile(`--[a-z0-9][a-z0-9-]*`)

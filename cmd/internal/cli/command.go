package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Command is a command's flags and its help: what the command does, how
// it is called, its flags under headings by what a user is doing with
// them, examples and exit statuses.
type Command struct {
	*pflag.FlagSet
	// Examples and Exits are the help's last sections, as written: lines
	// of command lines, each with a comment on what it does, and of exit
	// statuses, each with when the command ends with it.
	Examples, Exits string
	synopsis        string // what follows the name on the usage line, such as "[flags] [FILE...]"
	about           string // what the command does, in a sentence or two
	groups          []group
}

// group is a heading of the help and the flags under it: those defined
// from the from-th flag on, until the next group.
type group struct {
	title string
	from  int
}

// NewCommand returns the command name with no flags yet; the flags keep
// the order in which they are defined.
func NewCommand(name, synopsis, about string) *Command {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	return &Command{FlagSet: fs, synopsis: synopsis, about: about}
}

// Group puts the flags defined after it, until the next Group, under the
// heading title in the help.
func (c *Command) Group(title string) {
	c.groups = append(c.groups, group{title, len(c.flags())})
}

func (c *Command) flags() []*pflag.Flag {
	var flags []*pflag.Flag
	c.VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
	return flags
}

// WriteHelp writes the command's help to w.
func (c *Command) WriteHelp(w io.Writer) {
	fmt.Fprintf(w, "%s: %s\n\nUsage: %s %s\n", c.Name(), c.about, c.Name(), c.synopsis)
	flags := c.flags()
	groups := c.groups
	if len(groups) == 0 || groups[0].from > 0 {
		groups = append([]group{{"Flags", 0}}, groups...)
	}
	for i, g := range groups {
		to := len(flags)
		if i+1 < len(groups) {
			to = groups[i+1].from
		}
		set := pflag.NewFlagSet(g.title, pflag.ContinueOnError)
		set.SortFlags = false
		for _, f := range flags[g.from:to] {
			set.AddFlag(f)
		}
		fmt.Fprintf(w, "\n%s:\n%s", g.title, set.FlagUsagesWrapped(100))
	}
	for _, s := range []struct{ title, text string }{{"Examples", c.Examples}, {"Exit status", c.Exits}} {
		if text := strings.Trim(s.text, "\n"); text != "" {
			fmt.Fprintf(w, "\n%s:\n%s\n", s.title, text)
		}
	}
}

// Parse parses args into c's flags and then runs check, the command's
// checks of its flags against one another (nil: none). It reports
// whether the command goes on; if not, it returns the exit status:
// StatusOK after --help, which writes the help to stdout, and
// StatusUsage after a usage error, which it reports on stderr as
// "NAME: error", with the nearest flag to one it does not know.
func Parse(c *Command, args []string, stdout, stderr io.Writer, check func() error) (status int, ok bool) {
	c.SetOutput(stderr)
	c.Usage = func() { c.WriteHelp(stdout) }
	err := c.FlagSet.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return StatusOK, false
	}
	if err == nil && check != nil {
		err = check()
	}
	if err != nil {
		msg := Message(err)
		var unknown *pflag.NotExistError
		if errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() == "" {
			if near := c.nearest(unknown.GetSpecifiedName()); near != "" {
				msg += fmt.Sprintf(" (did you mean --%s?)", near)
			}
		}
		fmt.Fprintf(stderr, "%s: %s\n", c.Name(), msg)
		return StatusUsage, false
	}
	return StatusOK, true
}

// nearest returns the flag whose name is nearest to name: one that name
// begins, or one at most two edits away (one for a short name), or "".
func (c *Command) nearest(name string) string {
	best, bestDist := "", 3
	if len(name) < 4 {
		bestDist = 2
	}
	for _, f := range c.flags() {
		d := editDistance(name, f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance between a and b: the
// fewest single-byte insertions, deletions and substitutions that turn
// one into the other.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

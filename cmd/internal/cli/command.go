package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"fifteen/internal/nearest"
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
	// Hints names, for flags the command does not have, what a user who
	// gives one most likely wants, such as "--set korf50" for --korf50:
	// an unknown flag without a hint gets the nearest flag suggested.
	Hints    map[string]string
	synopsis string // what follows the name on the usage line, such as "[flags] [FILE...]"
	about    string // what the command does, in a sentence or two
	groups   []group
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
// "NAME: error", with a hint where it has one (hint).
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
		fmt.Fprintf(stderr, "%s: %s\n", c.Name(), c.hint(err, args))
		return StatusUsage, false
	}
	return StatusOK, true
}

// hint returns the message of err, a usage error of args, with what the
// user most likely meant: a long flag written with one dash, which pflag
// reads as short flags (-threads as -t hreads), is named with two; an
// unknown flag gets the one Hints names for it, or the nearest flag.
func (c *Command) hint(err error, args []string) string {
	for _, arg := range args {
		if arg == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		if strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--") && len(name) > 1 && c.Lookup(name) != nil {
			return fmt.Sprintf("%s: a long flag takes two dashes: --%s", arg, strings.TrimPrefix(arg, "-"))
		}
	}
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedShortnames() != "" {
		return err.Error()
	}
	name := unknown.GetSpecifiedName()
	near, ok := c.Hints[name]
	if !ok {
		var names []string
		for _, f := range c.flags() {
			names = append(names, f.Name)
		}
		if n := nearest.Name(name, names); n != "" {
			near = "--" + n
		}
	}
	if near == "" {
		return err.Error()
	}
	return fmt.Sprintf("%s (did you mean %s?)", err, near)
}

// HelpWord returns a usage error if the word "help" is among the
// command's arguments and no file of that name is there: a user asking
// for the help, not for a file (issue 67: "open help: no such file").
func (c *Command) HelpWord() error {
	for _, a := range c.Args() {
		if _, err := os.Stat(a); a == "help" && err != nil {
			return fmt.Errorf("no file %q to read: for the help, %s --help", a, c.Name())
		}
	}
	return nil
}

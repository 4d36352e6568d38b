package docs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// link matches a Markdown link's target: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// page is a Markdown file's links and the anchors of its headings.
type page struct {
	links   []string
	anchors map[string]bool
}

// read returns the page at path, outside its fenced code blocks.
func read(path string) (page, error) {
	f, err := os.Open(path)
	if err != nil {
		return page{}, err
	}
	defer f.Close()
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			a := anchor(title)
			if n := seen[a]; n > 0 {
				p.anchors[fmt.Sprintf("%s-%d", a, n)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			p.links = append(p.links, m[1])
		}
	}
	return p, sc.Err()
}

// anchor returns a heading's anchor as GitHub makes it: lower case, its
// letters, digits, hyphens and underscores kept, spaces made hyphens.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// TestLinks checks every relative link of README.md and docs/*.md: its
// file exists, and its #anchor is a heading of that file.
func TestLinks(t *testing.T) {
	root := "../.."
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	pages := map[string]page{}
	load := func(path string) (page, error) {
		if p, ok := pages[path]; ok {
			return p, nil
		}
		p, err := read(path)
		pages[path] = p
		return p, err
	}
	for _, file := range files {
		p, err := load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range p.links {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %s: no such file", file, target)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %s: an anchor in a file that is not Markdown", file, target)
				continue
			}
			q, err := load(dest)
			if err != nil {
				t.Errorf("%s: link %s: %v", file, target, err)
			} else if !q.anchors[frag] {
				t.Errorf("%s: link %s: no heading makes the anchor #%s", file, target, frag)
			}
		}
	}
}

// TestAnchor checks anchor against headings as GitHub renders them.
func TestAnchor(t *testing.T) {
	for title, want := range map[string]string{
		"The 4×4 search": "the-44-search",
		"2026-11-26 (issue 49): zero-aware tables and views":                   "2026-11-26-issue-49-zero-aware-tables-and-views",
		"Moved from performance.md (2026-11-26): where a 4×4 node's time goes": "moved-from-performancemd-2026-11-26-where-a-44-nodes-time-goes",
		"`solve` flags": "solve-flags",
	} {
		if got := anchor(title); got != want {
			t.Errorf("anchor(%q) = %q, want %q", title, got, want)
		}
	}
}

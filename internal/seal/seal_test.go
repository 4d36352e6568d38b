package seal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestSealOpen(t *testing.T) {
	k, err := LoadKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range []string{`{}`, `{"a":1}` + "\n", `{"a":[1,2],"b":{"c":"d"}}`} {
		sealed, err := k.Seal([]byte(obj))
		if err != nil {
			t.Fatal(err)
		}
		opened, err := k.Open(sealed)
		if err != nil {
			t.Fatalf("%s: %v", sealed, err)
		}
		var v map[string]any
		if err := json.Unmarshal(opened, &v); err != nil || v["seal"] == nil {
			t.Fatalf("%s: not JSON with its seal: %v", opened, err)
		}
		// Every byte changed, and every byte cut off at the end, is refused.
		for i := range sealed {
			edited := []byte(string(sealed))
			edited[i] ^= 0x01
			if _, err := k.Open(edited); err == nil {
				t.Errorf("%s: byte %d changed, opened", sealed, i)
			}
		}
		for n := range len(sealed) - 1 {
			if _, err := k.Open(sealed[:n]); err == nil {
				t.Errorf("%s: cut to %d bytes, opened", sealed, n)
			}
		}
	}
	var none *Key // a program's before it has loaded one: an error, never a panic
	if _, err := none.Seal([]byte(`{}`)); err == nil {
		t.Error("sealed without a key")
	}
	if _, err := none.Open(sealedOf(t, k)); err == nil {
		t.Error("opened without a key")
	}
	if _, err := k.Seal([]byte(`[1]`)); err == nil {
		t.Error("an array sealed")
	}
	if _, err := k.Open([]byte(`{"a":1}`)); !errors.Is(err, ErrUnsealed) {
		t.Errorf("unsealed: %v", err)
	}
	other, err := LoadKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sealed, _ := k.Seal([]byte(`{"a":1}`))
	if _, err := other.Open(sealed); !errors.Is(err, ErrBroken) {
		t.Errorf("another key's: %v", err)
	}
}

// TestLoadKeyOnce makes the key from several goroutines at once: they
// get one key, and the file is its owner's alone.
func TestLoadKeyOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	keys := make([]*Key, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := LoadKey(dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if k == nil || string(k.secret) != string(keys[0].secret) {
			t.Fatal("two keys")
		}
	}
	info, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, %v", info.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left beside the key: %v", entries)
	}
}

func TestDamagedKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte("not hex\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey(dir); err == nil {
		t.Error("a damaged key loaded")
	}
	link := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, KeyFile), filepath.Join(link, KeyFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey(link); err == nil {
		t.Error("a key through a link loaded")
	}
}

// sealedOf returns a small object sealed under k.
func sealedOf(t *testing.T, k *Key) []byte {
	t.Helper()
	sealed, err := k.Seal([]byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

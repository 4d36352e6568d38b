// Package seal signs the JSON files that a program writes and reads back
// to decide what it answers (checkpoints, a split job's parts and marks),
// so that a file changed after it was written is refused as a whole,
// whatever was changed in it: a field checked one at a time leaves the
// next field open, and an edited checkpoint could make a longer answer
// pass as optimal (issue 76).
//
// The seal is an HMAC-SHA-256, under a key of the program's, of the
// bytes before it. It is the object's last member, so that a sealed file
// is still JSON and tools such as jq read it:
//
//	{"version":4,...,"seal":"hmac-sha256:9f86d0…"}
//
// The key is a random 32 bytes in a file of its own (KeyFile), readable
// by its owner alone, made on first use. It guards against mistakes and
// hand edits, not against someone who can read the key: a file sealed
// under another key (the key file removed, another user's) is refused
// too, and the message says both.
package seal

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// KeyFile is the name of the key's file in its directory.
const KeyFile = "seal.key"

// keySize is the key's length in bytes: HMAC-SHA-256's block is longer,
// and its output no shorter.
const keySize = 32

// ErrUnsealed is Open's error for a file with no seal: one written by an
// earlier version of the program, or by hand.
var ErrUnsealed = errors.New("it has no seal: an earlier version wrote it, or it was written by hand")

// ErrBroken is Open's error for a file whose seal is not that of its
// content under the key: changed after it was written, or sealed under
// another key.
var ErrBroken = errors.New("its seal does not match: it was changed after it was written, or sealed under another key")

// Key seals and opens files. Its methods may be called at once from
// several goroutines.
type Key struct {
	secret []byte
	path   string // the key's file, for messages
}

// LoadKey returns the key of dir's KeyFile, which it makes, with dir,
// if there is none yet. Processes that make it at once get one key: each
// writes a key of its own beside it and links it into place, and the
// first link wins.
func LoadKey(dir string) (*Key, error) {
	path := filepath.Join(dir, KeyFile)
	k, err := readKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Not named as atomicfile's temporary files, which a database
	// directory's owner sweeps when no lock holds them: the key may live
	// among the default databases.
	tmp, err := os.CreateTemp(dir, "."+KeyFile+".new")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	secret := make([]byte, keySize)
	rand.Read(secret)
	_, err = tmp.Write([]byte(hex.EncodeToString(secret) + "\n"))
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("making the seal's key %s: %w", path, err)
	}
	return readKey(path)
}

// readKey reads the key file at path: a regular file, not a link, of
// the key in hexadecimal.
func readKey(path string) (*Key, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("the seal's key %s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	secret, err := hex.DecodeString(string(bytes.TrimSpace(data)))
	if err != nil || len(secret) != keySize {
		return nil, fmt.Errorf("the seal's key %s is damaged: remove it, and the files sealed under it will be refused", path)
	}
	return &Key{secret, path}, nil
}

// prefix and the closing bytes frame the seal: `,"seal":"hmac-sha256:`,
// 64 hexadecimal digits, `"}`.
const (
	member = `"seal":"hmac-sha256:`
	digits = 2 * sha256.Size
)

// errNoKey is the error of a nil *Key's methods.
var errNoKey = errors.New("seal: no key")

// Seal returns the JSON object obj, as encoding/json writes it (a
// newline may follow), with its seal as its last member, and a newline.
func (k *Key) Seal(obj []byte) ([]byte, error) {
	if k == nil {
		return nil, errNoKey
	}
	obj = bytes.TrimRight(obj, "\n")
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, errors.New("seal: not a JSON object")
	}
	body := obj[:len(obj)-1]
	out := bytes.Clone(body)
	if len(body) > 1 {
		out = append(out, ',')
	}
	out = append(out, member...)
	out = append(out, hex.EncodeToString(k.sum(out))...)
	return append(out, "\"}\n"...), nil
}

// Open returns the JSON object of a sealed file's bytes, seal included
// (decoders ignore it), once it has checked the seal: ErrUnsealed if
// there is none, ErrBroken if it does not match.
func (k *Key) Open(data []byte) ([]byte, error) {
	if k == nil {
		return nil, errNoKey
	}
	obj := bytes.TrimRight(data, "\n")
	tail := len(member) + digits + 2 // `"}`
	if len(obj) < tail+1 || !bytes.HasSuffix(obj, []byte(`"}`)) {
		return nil, ErrUnsealed
	}
	signed := obj[:len(obj)-digits-2]
	if !bytes.HasSuffix(signed, []byte(member)) {
		return nil, ErrUnsealed
	}
	got, err := hex.DecodeString(string(obj[len(signed) : len(obj)-2]))
	if err != nil || !hmac.Equal(got, k.sum(signed)) {
		return nil, fmt.Errorf("%w (%s)", ErrBroken, k.path)
	}
	return obj, nil
}

// sum returns the HMAC of b under the key.
func (k *Key) sum(b []byte) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write(b)
	return m.Sum(nil)
}

// Marshal returns v, which JSON encodes as an object, sealed.
func (k *Key) Marshal(v any) ([]byte, error) {
	obj, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return k.Seal(obj)
}

// Unmarshal decodes the sealed data into v once it has checked its seal
// (Open).
func (k *Key) Unmarshal(data []byte, v any) error {
	obj, err := k.Open(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(obj, v)
}

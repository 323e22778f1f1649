package cache

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// MaxEntryBytes bounds one file of the disk cache; a larger file is a miss.
const MaxEntryBytes = 64 << 20

// disk keeps one file per key: DIR/ab/abcdef....json, where the name is
// the key's hex digest. Files are written atomically (temporary file and
// rename), so a crash leaves a complete file or none; a file that does not
// decode, or holds another key, is a miss.
type disk struct{ dir string }

func openDisk(dir string) (*disk, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, unusable(dir, err)
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return nil, unusable(dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return &disk{dir: dir}, nil
}

func unusable(dir string, err error) *fault.Error {
	return fault.Wrap(err, fault.PhaseConfig, KindCacheUnusable, "the cache directory cannot be created or written").
		With("dir", dir).WithHint("give --cache a writable directory")
}

func (d *disk) path(key string) string {
	hex := key[len("sha256:"):]
	return filepath.Join(d.dir, hex[:2], hex+".json")
}

func (d *disk) load(key string) *model.Response {
	f, err := os.Open(d.path(key))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxEntryBytes+1))
	if err != nil || len(data) > MaxEntryBytes {
		return nil
	}
	var e entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&e) != nil || e.Version != entryVersion || e.Key != key {
		return nil
	}
	return stored(&e.Response)
}

func (d *disk) store(key string, r *model.Response) error {
	data, err := encodeEntry(key, r)
	if err != nil {
		return err
	}
	p := d.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

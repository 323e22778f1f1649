package pdf

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// cacheFile is the text cache's record of one document.
type cacheFile struct {
	Version string `json:"version"`
	Pages   []Page `json:"pages"`
}

func (e *Engine) textCachePath(key string) string {
	dir := cacheDir(e.cfg.TextCacheDir, "pdftext")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, key[:2], key+".json")
}

// cached returns the pages recorded for the document with content hash key.
// A missing, unreadable or stale record is a miss.
func (e *Engine) cached(key string) ([]Page, bool) {
	path := e.textCachePath(key)
	if path == "" {
		return nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var cf cacheFile
	if json.Unmarshal(b, &cf) != nil || cf.Version != extractVersion || cf.Pages == nil {
		return nil, false
	}
	return cf.Pages, true
}

// store records pages under key, best effort: written to a temporary file
// and renamed, so a reader never sees half a record.
func (e *Engine) store(key string, pages []Page) {
	path := e.textCachePath(key)
	if path == "" {
		return
	}
	b, err := json.Marshal(cacheFile{Version: extractVersion, Pages: pages})
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		_ = os.Remove(f.Name())
	}
}

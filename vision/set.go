package vision

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/model"
)

// Set is a run's named images (code mode's load_image(NAME)). It is safe
// for concurrent use; a nil *Set is empty.
type Set struct {
	mu sync.Mutex
	m  map[string]model.Image
}

// NewSet returns a set holding images (copied).
func NewSet(images map[string]model.Image) *Set {
	s := &Set{m: map[string]model.Image{}}
	for n, im := range images {
		s.m[n] = im
	}
	return s
}

// Add adds or replaces the image called name.
func (s *Set) Add(name string, im model.Image) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]model.Image{}
	}
	s.m[name] = im
}

// Get returns the image called name.
func (s *Set) Get(name string) (model.Image, bool) {
	if s == nil {
		return model.Image{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	im, ok := s.m[name]
	return im, ok
}

// ByHash returns the image whose SHA256 is sum.
func (s *Set) ByHash(sum string) (model.Image, bool) {
	if s == nil {
		return model.Image{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, im := range s.m {
		if im.SHA256 == sum {
			return im, true
		}
	}
	return model.Image{}, false
}

// Resolve returns the image a reference names: an image name of the set,
// "sha256:HEX" of one of its images, or an image value (a map whose
// "image" is "sha256:HEX", as code mode's load_image returns).
func (s *Set) Resolve(ref any) (model.Image, bool) {
	var key string
	switch r := ref.(type) {
	case string:
		if im, ok := s.Get(r); ok {
			return im, true
		}
		key = r
	case map[string]any:
		key, _ = r["image"].(string)
	}
	if sum, ok := strings.CutPrefix(key, "sha256:"); ok {
		return s.ByHash(sum)
	}
	return model.Image{}, false
}

// Names returns the images' names, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.m))
	for n := range s.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Listing describes the set's images, one line each: name, media type,
// dimensions, size and hash. It is the text of a context made only of
// images (rlm run --context chart.png), so the model sees their metadata.
func (s *Set) Listing() string {
	var b strings.Builder
	for _, n := range s.Names() {
		im, _ := s.Get(n)
		fmt.Fprintf(&b, "%s: %s, %dx%d px, %d bytes, sha256 %s\n", n, im.MediaType, im.Width, im.Height, len(im.Data), im.SHA256)
	}
	return b.String()
}

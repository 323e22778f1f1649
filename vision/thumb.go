package vision

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"sync"

	"golang.org/x/image/draw"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// Bounds of a thumbnail (Thumbnail): the longest edge and the encoded
// size. Traces keep thumbnails of the images a call sent only under
// --trace-content (engine.Config.TraceContent), at most
// model.MaxTracedThumbnails per call (docs/trace.md, "Thumbnails").
const (
	ThumbEdge     = 128      // px, the longest edge of a thumbnail
	ThumbMaxBytes = 16 << 10 // bytes of the encoded thumbnail (before base64)
)

// thumbQualities are the JPEG qualities tried, best first, until the
// encoding fits ThumbMaxBytes.
var thumbQualities = []int{80, 60, 40, 20}

// Thumb is a thumbnail: an encoded PNG or JPEG of at most ThumbEdge px
// on its longest edge and at most ThumbMaxBytes bytes.
type Thumb struct {
	MediaType string // image/png or image/jpeg
	Width     int
	Height    int
	Data      []byte
}

// DataURL returns the thumbnail as a data URL
// ("data:image/png;base64,...").
func (t Thumb) DataURL() string {
	return "data:" + t.MediaType + ";base64," + base64.StdEncoding.EncodeToString(t.Data)
}

// Thumbnail makes the thumbnail of the encoded image b (PNG, JPEG, GIF
// or WebP; a GIF's first frame): b is decoded once, scaled down
// (approximate bilinear: cheap, and enough at this size; never up) to at
// most ThumbEdge px on the longest edge, and encoded both as PNG and as
// JPEG; the smaller encoding within ThumbMaxBytes is kept (JPEG at a
// lower quality if neither fits). Transparent pixels are drawn on white
// for the JPEG. Bytes that are no image fail with bad_image; an image
// above DefaultMaxPixels with image_too_large (it is never decoded).
func Thumbnail(b []byte) (Thumb, error) {
	info, err := Inspect(b)
	if err != nil {
		return Thumb{}, err
	}
	if px := int64(info.Width) * int64(info.Height); px > DefaultMaxPixels {
		return Thumb{}, fault.New(fault.PhaseContext, KindImageTooLarge,
			fmt.Sprintf("the %dx%d image has %d pixels, above the %d-pixel bound", info.Width, info.Height, px, int64(DefaultMaxPixels))).
			With("pixels", px).With("limit_pixels", int64(DefaultMaxPixels)).
			WithHint("images are bounded before they are sent (vision.Prepare); this one was not")
	}
	src, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return Thumb{}, fault.Wrap(err, fault.PhaseContext, KindBadImage, "the "+info.Format+" image does not decode").
			With("format", info.Format).WithHint("the file is damaged or truncated; re-export it")
	}
	w, h := info.Width, info.Height
	if max(w, h) > ThumbEdge {
		w, h = scaled(w, h, ThumbEdge)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	// White under transparent pixels, so PNG and JPEG show the same.
	draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)

	var best []byte
	mt := ""
	var pb bytes.Buffer
	if err := png.Encode(&pb, dst); err == nil && pb.Len() <= ThumbMaxBytes {
		best, mt = pb.Bytes(), MediaType(PNG)
	}
	for _, q := range thumbQualities {
		var jb bytes.Buffer
		if err := jpeg.Encode(&jb, dst, &jpeg.Options{Quality: q}); err != nil {
			break
		}
		if jb.Len() <= ThumbMaxBytes {
			if best == nil || jb.Len() < len(best) {
				best, mt = jb.Bytes(), MediaType(JPEG)
			}
			break
		}
	}
	if best == nil {
		return Thumb{}, fault.New(fault.PhaseContext, fault.KindInternal, "no thumbnail encoding fits the byte bound").
			With("limit_bytes", ThumbMaxBytes)
	}
	return Thumb{MediaType: mt, Width: w, Height: h, Data: best}, nil
}

// ThumbsKept bounds the thumbnails a Thumbs keeps to reuse (about 22 KB
// each as data URLs).
const ThumbsKept = 64

// Thumbs makes the trace thumbnails of the images one run sends: its Of
// is the run's model.Thumbnailer (model.WithThumbnails). Each image's
// thumbnail is made once: the first ThumbsKept are kept by hash, so an
// image several calls send (a batch's, or a tool result's in every later
// turn of the direct loop) is decoded once. The zero value is ready; it
// is safe for concurrent use.
type Thumbs struct {
	mu sync.Mutex
	m  map[string]string
}

// Of returns the thumbnail of im as a data URL (Thumbnail, Thumb.DataURL).
func (t *Thumbs) Of(im model.Image) (string, error) {
	t.mu.Lock()
	s, ok := t.m[im.SHA256]
	t.mu.Unlock()
	if ok {
		return s, nil
	}
	th, err := Thumbnail(im.Data)
	if err != nil {
		return "", err
	}
	s = th.DataURL()
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]string{}
	}
	if len(t.m) < ThumbsKept {
		t.m[im.SHA256] = s
	}
	t.mu.Unlock()
	return s, nil
}

package vision_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// noise is a w×h PNG of random pixels: the worst case for a small
// encoding (as PNG it does not fit the thumbnail's byte bound at 128 px).
func noise(w, h int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func TestThumbnail(t *testing.T) {
	for _, c := range []struct {
		name         string
		data         []byte
		wantW, wantH int
		wantType     string // "" for either
	}{
		{"png-wide", visiontest.Solid(vision.PNG, 1000, 500, red), 128, 64, ""},
		{"jpeg-tall", visiontest.Solid(vision.JPEG, 300, 900, red), 42, 128, ""},
		{"gif", visiontest.Solid(vision.GIF, 256, 256, red), 128, 128, ""},
		{"webp", visiontest.Solid(vision.WebP, 400, 200, red), 128, 64, ""},
		{"small-kept", visiontest.Solid(vision.PNG, 20, 10, red), 20, 10, ""},
		{"noise", noise(512, 512), 128, 128, "image/jpeg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			th, err := vision.Thumbnail(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if th.Width != c.wantW || th.Height != c.wantH {
				t.Fatalf("thumbnail %dx%d, want %dx%d", th.Width, th.Height, c.wantW, c.wantH)
			}
			if len(th.Data) > vision.ThumbMaxBytes {
				t.Fatalf("thumbnail of %d bytes, above %d", len(th.Data), vision.ThumbMaxBytes)
			}
			if c.wantType != "" && th.MediaType != c.wantType {
				t.Fatalf("media type %s, want %s", th.MediaType, c.wantType)
			}
			// The bytes are the media type's and decode to the dimensions.
			info, err := vision.Inspect(th.Data)
			if err != nil || vision.MediaType(info.Format) != th.MediaType || info.Width != th.Width || info.Height != th.Height {
				t.Fatalf("Inspect(thumbnail) = %+v, %v; thumbnail %s %dx%d", info, err, th.MediaType, th.Width, th.Height)
			}
			url := th.DataURL()
			prefix := "data:" + th.MediaType + ";base64,"
			if !strings.HasPrefix(url, prefix) {
				t.Fatalf("DataURL = %.40q", url)
			}
			if b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, prefix)); err != nil || !bytes.Equal(b, th.Data) {
				t.Fatalf("DataURL does not carry the bytes: %v", err)
			}
		})
	}
}

// TestThumbnailSmaller: of PNG and JPEG the smaller encoding is kept (a
// flat image is smaller as PNG, noise as JPEG).
func TestThumbnailSmaller(t *testing.T) {
	th, err := vision.Thumbnail(visiontest.Solid(vision.JPEG, 500, 500, color.NRGBA{A: 255}))
	if err != nil {
		t.Fatal(err)
	}
	if th.MediaType != "image/png" {
		t.Fatalf("a flat image's thumbnail is %s, want image/png (the smaller)", th.MediaType)
	}
}

func TestThumbnailErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		kind fault.Kind
	}{
		{"not-an-image", []byte("hello"), vision.KindBadImage},
		{"truncated", visiontest.Solid(vision.PNG, 64, 64, red)[:60], vision.KindBadImage},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := vision.Thumbnail(c.data)
			if got := fault.KindOf(err); got != c.kind {
				t.Fatalf("kind %q (%v), want %q", got, err, c.kind)
			}
		})
	}
}

package vision_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/draw"

	"github.com/rlm-go/rlm/vision"
)

// photo returns a w×h image with a gradient (so it does not compress to
// nothing) encoded as format.
func photo(b *testing.B, format string, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: uint8(x ^ y), A: 255})
		}
	}
	var buf bytes.Buffer
	var err error
	if format == vision.JPEG {
		err = jpeg.Encode(&buf, img, nil)
	} else {
		err = png.Encode(&buf, img)
	}
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkPrepare measures the scale-down of a page-sized image to the
// default 2048-px edge (docs/model.md, "Vision"), and Prepare of an
// image already within it (a hash only).
func BenchmarkPrepare(b *testing.B) {
	for _, c := range []struct {
		name, format string
		w, h         int
	}{
		{"jpeg-4000x3000-scaled", vision.JPEG, 4000, 3000},
		{"png-2550x3300-scaled", vision.PNG, 2550, 3300}, // a letter page at 300 dpi
		{"png-1275x1650-as-is", vision.PNG, 1275, 1650},  // the same page at 150 dpi: within the edge, hashed only
	} {
		data := photo(b, c.format, c.w, c.h)
		for _, s := range []struct {
			name string
			s    draw.Scaler
		}{{"catmullrom", draw.CatmullRom}, {"bilinear", draw.BiLinear}, {"approxbilinear", draw.ApproxBiLinear}} {
			b.Run(c.name+"/"+s.name, func(b *testing.B) {
				defer vision.SetScaler(vision.SetScaler(s.s))
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := vision.Prepare(data, vision.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkThumbnail measures the thumbnail a trace keeps of an image a
// call sent (--trace-content; docs/trace.md, "Thumbnails"): of an image
// at the default 2048-px edge, and of a small one.
func BenchmarkThumbnail(b *testing.B) {
	for _, c := range []struct {
		name, format string
		w, h         int
	}{
		{"png-1583x2048", vision.PNG, 1583, 2048}, // a letter page as sent
		{"jpeg-2048x1536", vision.JPEG, 2048, 1536},
		{"png-400x300", vision.PNG, 400, 300},
	} {
		data := photo(b, c.format, c.w, c.h)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := vision.Thumbnail(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

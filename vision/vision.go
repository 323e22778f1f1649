// Package vision makes image values for vision sub-calls: it decodes
// PNG, JPEG, GIF and WebP images (the four formats both OpenAI and
// Anthropic accept), reads their metadata (format, dimensions, size),
// bounds them (pixels, bytes) and scales an image down to a configured
// maximum edge before it is sent, giving the model.Image a message
// carries. The token rules images are charged by are in package model
// (model.ImageTokens); docs/model.md, "Vision", describes the whole.
package vision

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/gif" // registers the GIF decoder with package image
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder with package image

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// Formats, as package image names them.
const (
	PNG  = "png"
	JPEG = "jpeg"
	GIF  = "gif"
	WebP = "webp"
)

// MediaType returns the MIME type of a format ("" for an unknown one).
func MediaType(format string) string {
	switch format {
	case PNG, JPEG, GIF, WebP:
		return "image/" + format
	}
	return ""
}

// Error kinds of package vision (Phase context: images are values of a
// run's input).
const (
	// KindImageTooLarge: an image above the pixel bound (detail
	// "pixels", "limit_pixels") or the byte bound (detail "bytes",
	// "limit_bytes").
	KindImageTooLarge fault.Kind = "image_too_large"
	// KindBadImage: bytes that are not a PNG, JPEG, GIF or WebP image,
	// or one that does not decode (detail "format" when it was
	// recognised).
	KindBadImage fault.Kind = "bad_image"
)

// Defaults of Limits.
const (
	// DefaultMaxPixels bounds an image's width*height before it is
	// decoded: 50 megapixels (an A4 page at 600 dpi is 35 MP).
	DefaultMaxPixels = 50_000_000
	// DefaultMaxBytes bounds an image's encoded size: 20 MiB, OpenAI's
	// per-image limit (Anthropic's is 5 MB per image as sent, which the
	// downscale to DefaultMaxEdge keeps).
	DefaultMaxBytes = 20 << 20
	// DefaultMaxEdge is the longest edge an image is sent with: 2048
	// px, the largest edge OpenAI's high detail looks at (Anthropic
	// scales above 1568 px itself).
	DefaultMaxEdge = 2048
)

// Limits bounds images. A zero field takes its default.
type Limits struct {
	// MaxPixels bounds width*height; an image above it is refused
	// (image_too_large), never decoded.
	MaxPixels int64
	// MaxBytes bounds the encoded size; above it is refused.
	MaxBytes int64
	// MaxEdge is the longest edge sent: a larger image is scaled down
	// (aspect kept) and re-encoded as PNG (JPEG for a JPEG).
	MaxEdge int
}

func (l Limits) norm() Limits {
	if l.MaxPixels <= 0 {
		l.MaxPixels = DefaultMaxPixels
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxEdge <= 0 {
		l.MaxEdge = DefaultMaxEdge
	}
	return l
}

// Info is an image's metadata.
type Info struct {
	Format string `json:"format"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Bytes  int64  `json:"bytes"`
}

// Sniff returns the format of b from its first bytes, or "".
func Sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return JPEG
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return WebP
	}
	return ""
}

// IsImageFile reports a file name with an image extension (.png, .jpg,
// .jpeg, .gif, .webp, any case).
func IsImageFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// Inspect reads b's metadata without decoding its pixels. Bytes that are
// no image of the four formats fail with bad_image.
func Inspect(b []byte) (Info, error) {
	f := Sniff(b)
	if f == "" {
		return Info{}, fault.New(fault.PhaseContext, KindBadImage, "not a PNG, JPEG, GIF or WebP image").
			With("bytes", len(b)).WithHint("send PNG, JPEG, GIF or WebP images")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || format != f {
		return Info{}, fault.Wrap(err, fault.PhaseContext, KindBadImage, "the "+f+" image does not decode").
			With("format", f).WithHint("the file is damaged or truncated; re-export it")
	}
	return Info{Format: f, Width: cfg.Width, Height: cfg.Height, Bytes: int64(len(b))}, nil
}

// Prepare checks b against lim and returns the model.Image to send: b
// itself when its longest edge is within lim.MaxEdge, else b decoded,
// scaled down (Catmull-Rom) and re-encoded (JPEG stays JPEG; PNG, GIF
// and WebP become PNG; a GIF's first frame). An image over the byte or
// pixel bound fails with image_too_large, with a hint; bytes that are no
// image, with bad_image.
func Prepare(b []byte, lim Limits) (model.Image, error) {
	lim = lim.norm()
	if int64(len(b)) > lim.MaxBytes {
		return model.Image{}, fault.New(fault.PhaseContext, KindImageTooLarge,
			fmt.Sprintf("the image is %d bytes, above the %d-byte bound", len(b), lim.MaxBytes)).
			With("bytes", len(b)).With("limit_bytes", lim.MaxBytes).
			WithHint("compress or crop the image, or raise the bound (vision.Limits.MaxBytes)")
	}
	info, err := Inspect(b)
	if err != nil {
		return model.Image{}, err
	}
	if px := int64(info.Width) * int64(info.Height); px > lim.MaxPixels {
		return model.Image{}, fault.New(fault.PhaseContext, KindImageTooLarge,
			fmt.Sprintf("the %dx%d image has %d pixels, above the %d-pixel bound", info.Width, info.Height, px, lim.MaxPixels)).
			With("pixels", px).With("limit_pixels", lim.MaxPixels).With("width", info.Width).With("height", info.Height).
			WithHint("crop or scale the image down first (for a PDF page, render it at a lower dpi), or raise the bound (vision.Limits.MaxPixels)")
	}
	if max(info.Width, info.Height) <= lim.MaxEdge {
		return Image(b, info), nil
	}
	src, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return model.Image{}, fault.Wrap(err, fault.PhaseContext, KindBadImage, "the "+info.Format+" image does not decode").
			With("format", info.Format).WithHint("the file is damaged or truncated; re-export it")
	}
	w, h := scaled(info.Width, info.Height, lim.MaxEdge)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	scaler.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	format := PNG
	if info.Format == JPEG {
		format = JPEG
		err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90})
	} else {
		err = png.Encode(&buf, dst)
	}
	if err != nil {
		return model.Image{}, fault.Wrap(err, fault.PhaseContext, fault.KindInternal, "cannot encode the scaled image")
	}
	return Image(buf.Bytes(), Info{Format: format, Width: w, Height: h, Bytes: int64(buf.Len())}), nil
}

// scaler scales images down (a variable for the benchmark's comparison).
var scaler draw.Scaler = draw.CatmullRom

// scaled returns w×h scaled so its longest edge is edge (aspect kept,
// each side at least 1).
func scaled(w, h, edge int) (int, int) {
	if w >= h {
		return edge, max(1, int(int64(h)*int64(edge)/int64(w)))
	}
	return max(1, int(int64(w)*int64(edge)/int64(h))), edge
}

// Image returns the model.Image of encoded bytes b with metadata info
// (no check: use Prepare for bytes from outside).
func Image(b []byte, info Info) model.Image {
	sum := sha256.Sum256(b)
	return model.Image{MediaType: MediaType(info.Format), SHA256: hex.EncodeToString(sum[:]), Width: info.Width, Height: info.Height, Data: b}
}

// Open reads the image file at path and prepares it (Prepare). A file
// above lim.MaxBytes is refused without being read whole.
func Open(path string, lim Limits) (model.Image, error) {
	lim = lim.norm()
	f, err := os.Open(path)
	if err != nil {
		return model.Image{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot open the image").With("path", path)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, lim.MaxBytes+1))
	if err != nil {
		return model.Image{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read the image").With("path", path)
	}
	im, err := Prepare(b, lim)
	if fe := fault.As(err); fe != nil {
		fe.With("path", path)
	}
	return im, err
}

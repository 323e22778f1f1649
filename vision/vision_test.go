package vision_test

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

var red = color.NRGBA{R: 200, G: 10, B: 20, A: 255}

func TestInspect(t *testing.T) {
	for _, f := range []string{vision.PNG, vision.JPEG, vision.GIF, vision.WebP} {
		t.Run(f, func(t *testing.T) {
			b := visiontest.Solid(f, 37, 21, red)
			info, err := vision.Inspect(b)
			if err != nil {
				t.Fatal(err)
			}
			want := vision.Info{Format: f, Width: 37, Height: 21, Bytes: int64(len(b))}
			if info != want {
				t.Fatalf("Inspect = %+v, want %+v", info, want)
			}
			im, err := vision.Prepare(b, vision.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if im.MediaType != "image/"+f || im.Width != 37 || im.Height != 21 || !bytes.Equal(im.Data, b) || len(im.SHA256) != 64 {
				t.Fatalf("Prepare = %+v", im)
			}
		})
	}
}

func TestWebPDecodes(t *testing.T) {
	// The hand-written WebP is a real one: its pixels decode to the colour.
	img, format, err := image.Decode(bytes.NewReader(visiontest.Solid(vision.WebP, 5, 3, red)))
	if err != nil || format != "webp" {
		t.Fatal(format, err)
	}
	if got := color.NRGBAModel.Convert(img.At(4, 2)).(color.NRGBA); got != red {
		t.Fatalf("pixel = %v, want %v", got, red)
	}
}

func TestPrepareScalesDown(t *testing.T) {
	for _, c := range []struct {
		format, wantType string
		w, h, edge       int
		wantW, wantH     int
	}{
		{vision.PNG, "image/png", 300, 100, 60, 60, 20},
		{vision.JPEG, "image/jpeg", 100, 300, 60, 20, 60},
		{vision.GIF, "image/png", 120, 120, 60, 60, 60},
		{vision.WebP, "image/png", 61, 10, 60, 60, 9},
		{vision.PNG, "image/png", 60, 10, 60, 60, 10}, // at the edge: sent as is
	} {
		b := visiontest.Solid(c.format, c.w, c.h, red)
		im, err := vision.Prepare(b, vision.Limits{MaxEdge: c.edge})
		if err != nil {
			t.Fatal(err)
		}
		if im.Width != c.wantW || im.Height != c.wantH || im.MediaType != c.wantType {
			t.Errorf("%s %dx%d: got %dx%d %s, want %dx%d %s", c.format, c.w, c.h, im.Width, im.Height, im.MediaType, c.wantW, c.wantH, c.wantType)
		}
		info, err := vision.Inspect(im.Data)
		if err != nil || info.Width != c.wantW || info.Height != c.wantH {
			t.Errorf("%s: the sent bytes are %+v, %v", c.format, info, err)
		}
	}
}

func TestPrepareRefuses(t *testing.T) {
	png := visiontest.Solid(vision.PNG, 200, 100, red)
	for _, c := range []struct {
		name string
		b    []byte
		lim  vision.Limits
		kind fault.Kind
	}{
		{"pixels", png, vision.Limits{MaxPixels: 19_999}, vision.KindImageTooLarge},
		{"bytes", png, vision.Limits{MaxBytes: int64(len(png) - 1)}, vision.KindImageTooLarge},
		{"not an image", []byte("hello, world"), vision.Limits{}, vision.KindBadImage},
		{"truncated", png[:30], vision.Limits{}, vision.KindBadImage},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := vision.Prepare(c.b, c.lim)
			fe := fault.As(err)
			if fe == nil || fe.Kind != c.kind || fe.Hint == "" {
				t.Fatalf("err = %v, want kind %s with a hint", err, c.kind)
			}
		})
	}
	if _, err := vision.Prepare(png, vision.Limits{MaxPixels: 20_000}); err != nil {
		t.Fatalf("at the pixel bound: %v", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "chart.webp")
	if err := os.WriteFile(p, visiontest.Solid(vision.WebP, 8, 4, red), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := vision.Open(p, vision.Limits{})
	if err != nil || im.Width != 8 || im.MediaType != "image/webp" {
		t.Fatal(im, err)
	}
	if !vision.IsImageFile(p) || vision.IsImageFile("notes.txt") {
		t.Fatal("IsImageFile")
	}
	if _, err := vision.Open(filepath.Join(dir, "none.png"), vision.Limits{}); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("missing file: %v", err)
	}
}

// The token rules against the providers' published examples.
func TestImageTokens(t *testing.T) {
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		// OpenAI's worked examples (images-vision guide, "Calculating costs").
		{"openai 1024x1024 high", model.OpenAIImageTokens(1024, 1024, "high"), 765},
		{"openai 2048x4096 high", model.OpenAIImageTokens(2048, 4096, ""), 1105},
		{"openai 4096x8192 low", model.OpenAIImageTokens(4096, 8192, "low"), 85},
		{"openai 512x512", model.OpenAIImageTokens(512, 512, ""), 255},
		{"openai 100x100, never scaled up", model.OpenAIImageTokens(100, 100, ""), 255},
		// Anthropic: width*height/750 after the scale-down.
		{"anthropic 200x200", model.AnthropicImageTokens(200, 200), 54},
		{"anthropic 1000x1000", model.AnthropicImageTokens(1000, 1000), 1334},
		{"anthropic 1092x1092 (its 1:1 maximum)", model.AnthropicImageTokens(1092, 1092), 1590},
		{"anthropic 784x1568 (its 1:2 maximum)", model.AnthropicImageTokens(784, 1568), 1640},
		{"anthropic 6000x4000, capped near 1,640", model.AnthropicImageTokens(6000, 4000), 1638},
		{"by model: claude", model.ImageTokens(model.Image{Width: 200, Height: 200}, "claude-sonnet-4-5"), 54},
		{"by model: openrouter claude", model.ImageTokens(model.Image{Width: 200, Height: 200}, "anthropic/claude-3-5-haiku"), 54},
		{"by model: gpt", model.ImageTokens(model.Image{Width: 1024, Height: 1024}, "gpt-4o"), 765},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

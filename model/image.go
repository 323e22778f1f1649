package model

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// Image is one image a message carries beside its text (a vision
// sub-call). Data is the encoded image (PNG, JPEG, GIF or WebP) as it is
// sent; it is never encoded in JSON: a message's JSON names the image by
// its SHA256, so a trace, a cache key or a cassette holds the hash, never
// the bytes. Package vision makes Images from files and bytes, bounded
// and downscaled (vision.Prepare).
type Image struct {
	// MediaType is the image's MIME type: image/png, image/jpeg,
	// image/gif or image/webp.
	MediaType string `json:"media_type"`
	// SHA256 is the lowercase hex SHA-256 of Data.
	SHA256 string `json:"sha256"`
	// Width and Height are the image's dimensions in pixels.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Detail is OpenAI's detail level ("low" or "high"; "" sends
	// "high"). Other providers ignore it.
	Detail string `json:"detail,omitempty"`
	// Data is the encoded image.
	Data []byte `json:"-"`
}

// Short names the image in messages and -v output:
// "sha256:0123456789ab 800x600 image/png".
func (im Image) Short() string {
	h := im.SHA256
	if len(h) > 12 {
		h = h[:12]
	}
	return fmt.Sprintf("sha256:%s %dx%d %s", h, im.Width, im.Height, im.MediaType)
}

// KindNoVision reports images sent to a model that takes no image input:
// the model table says the model has no vision (Info.Vision false for a
// known model), or the server refused the images (IsNoImageInput);
// detail "model" and "images".
const KindNoVision fault.Kind = "no_vision"

// NoVision is the no_vision error of a request with images for modelName.
func NoVision(modelName string, images int, cause error) *fault.Error {
	return fault.Wrap(cause, fault.PhaseProvider, KindNoVision,
		fmt.Sprintf("model %s takes no image input, and the call carries %d image(s)", modelName, images)).
		With("model", modelName).With("images", images).
		WithHint("send the images to a vision model (--sub-model, the step's \"model\"), or declare the model's vision in the model table (--model-window NAME=TOKENS,vision; model.Info.Vision)")
}

// CountImages returns how many images req's messages carry.
func CountImages(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Images)
	}
	return n
}

// CheckVision refuses a request carrying images for a model the table
// knows to have no vision (a host entry or the shipped table; a model
// nobody knows is sent, and a server refusal is recognised after,
// IsNoImageInput). It returns nil when req carries no image.
func (w *Windows) CheckVision(req Request) *fault.Error {
	n := CountImages(req)
	if n == 0 {
		return nil
	}
	win := w.Lookup(req.Model)
	if win.Source == SourceDefault || win.Vision {
		return nil
	}
	return NoVision(req.Model, n, nil)
}

// noImageInput matches what servers say when a model takes no images:
// OpenAI's "Invalid content type. image_url is only supported by certain
// models", vLLM's "... is not a multimodal model", llama.cpp's "image
// input is not supported", Ollama's "does not support images" and
// similar.
var noImageInput = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(image_url is only supported|not a multimodal model|image input is not supported|(does not|doesn't) support (image|vision)|no image input|images? (are|is) not supported|vision is not supported|multimodal.*not supported)`)
})

// IsNoImageInput reports a server's refusal of a request's images: an
// HTTP 400, 404, 415 or 422 whose error message says the model takes no
// image input.
func IsNoImageInput(err error) bool {
	fe := fault.As(err)
	if fe == nil || fe.Kind != KindHTTPStatus {
		return false
	}
	switch statusOf(fe.Detail["status"]) {
	case 400, 404, 415, 422:
	default:
		return false
	}
	msg, _ := fe.Detail["error_message"].(string)
	return noImageInput().MatchString(msg) || noImageInput().MatchString(fe.Message)
}

// Image token rules. Each is the provider's published rule for what one
// image costs as input (docs/model.md, "Vision"):
//
//   - OpenAI (platform.openai.com/docs/guides/images-vision, "Calculating
//     costs"): detail low is 85 tokens; detail high scales the image to
//     fit a 2048×2048 square, then its shortest side down to 768 px, and
//     costs 85 plus 170 per 512-px tile;
//   - Anthropic (docs.anthropic.com/en/docs/build-with-claude/vision,
//     "Evaluate image size" and "Calculate image costs"): an image whose
//     long edge is above 1568 px or that would cost more than ~1,600
//     tokens is first scaled down (aspect kept); it then costs
//     width*height/750 tokens. The page's table of the largest sizes
//     not resized goes up to 784×1568 (1,229,312 px, 1,640 tokens), so
//     that is the pixel bound used here: an image is never estimated
//     below what its resize leaves.
const (
	OpenAIImageBase     = 85
	OpenAIImageTile     = 170
	AnthropicMaxEdge    = 1568
	AnthropicMaxPixels  = 784 * 1568
	AnthropicPixelsPerT = 750
)

// OpenAIImageTokens is what one image of w×h pixels costs on OpenAI at
// the detail level ("low", or anything else for high). Images are only
// ever scaled down: one whose shortest side is already under 768 px
// keeps its size.
func OpenAIImageTokens(w, h int, detail string) int {
	if detail == "low" {
		return OpenAIImageBase
	}
	if w <= 0 || h <= 0 {
		return OpenAIImageBase
	}
	fw, fh := float64(w), float64(h)
	if fw > 2048 || fh > 2048 {
		s := 2048 / math.Max(fw, fh)
		fw, fh = math.Floor(fw*s), math.Floor(fh*s)
	}
	if short := math.Min(fw, fh); short > 768 {
		s := 768 / short
		fw, fh = math.Floor(fw*s), math.Floor(fh*s)
	}
	tiles := int(math.Ceil(fw/512)) * int(math.Ceil(fh/512))
	return OpenAIImageBase + OpenAIImageTile*tiles
}

// AnthropicImageTokens is what one image of w×h pixels costs on
// Anthropic: after the scale-down to a long edge of at most 1568 px and
// at most AnthropicMaxPixels, width*height/750, rounded up.
func AnthropicImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return 1
	}
	fw, fh := float64(w), float64(h)
	if long := math.Max(fw, fh); long > AnthropicMaxEdge {
		s := AnthropicMaxEdge / long
		fw, fh = math.Floor(fw*s), math.Floor(fh*s)
	}
	if px := fw * fh; px > AnthropicMaxPixels {
		s := math.Sqrt(AnthropicMaxPixels / px)
		fw, fh = math.Floor(fw*s), math.Floor(fh*s)
	}
	return int(math.Ceil(fw * fh / AnthropicPixelsPerT))
}

// ImageTokens is what im costs as input to the model modelName: the
// Anthropic rule for Claude models, the OpenAI rule for every other
// (OpenAI-compatible servers bill images their own way; the OpenAI rule
// is the admission's estimate for them).
func ImageTokens(im Image, modelName string) int {
	if strings.HasPrefix(bareName(modelName), "claude") {
		return AnthropicImageTokens(im.Width, im.Height)
	}
	return OpenAIImageTokens(im.Width, im.Height, im.Detail)
}

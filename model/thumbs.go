package model

import "context"

// MaxTracedThumbnails bounds the thumbnails a model_call span keeps: the
// first this many images of a call; the rest are counted
// ("thumbnails_more").
const MaxTracedThumbnails = 8

// Thumbnailer makes the thumbnail of an image a call sends, as a data
// URL (package vision's Thumbnail, bounded in edge and bytes).
type Thumbnailer func(Image) (string, error)

type thumbKey struct{}

// WithThumbnails returns ctx under which Traced records thumbnails of the
// images a call sends (attribute "thumbnails": one data URL per image,
// aligned with "images", "" where none could be made; at most
// MaxTracedThumbnails, the rest counted in "thumbnails_more"). The engine
// sets it only under Config.TraceContent: a trace keeps image content
// only when asked to.
func WithThumbnails(ctx context.Context, t Thumbnailer) context.Context {
	return context.WithValue(ctx, thumbKey{}, t)
}

func thumbnailerOf(ctx context.Context) Thumbnailer {
	t, _ := ctx.Value(thumbKey{}).(Thumbnailer)
	return t
}

// thumbnails returns the thumbnails of ims by t, at most
// MaxTracedThumbnails, and how many more images there were.
func thumbnails(t Thumbnailer, ims []Image) ([]string, int) {
	n := min(len(ims), MaxTracedThumbnails)
	out := make([]string, n)
	for i := range n {
		if s, err := t(ims[i]); err == nil {
			out[i] = s
		}
	}
	return out, len(ims) - n
}

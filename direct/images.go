package direct

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/vision"
)

// maxImageScan bounds the nesting searched for image items in a tool
// result.
const maxImageScan = 4

// toolImages takes the images out of a tool result: every object of the
// shape of MCP's image content, {"type": "image", "data": BASE64,
// "mimeType": MEDIA} (modelcontextprotocol.io, the specification's
// "ImageContent"), anywhere in the value up to maxImageScan levels down,
// is decoded and bounded (vision.Prepare with lim) and replaced in the
// value by {"type": "image", "image": "sha256:...", "width": W,
// "height": H, "media_type": MEDIA}, so the observation text names the
// image and the tool message carries it (model.Message.Images). A value
// without images is returned as is; an image over the bounds, or one
// that does not decode, is its typed error (image_too_large, bad_image).
func toolImages(v json.RawMessage, lim vision.Limits) (json.RawMessage, []model.Image, error) {
	if !bytes.Contains(v, []byte(`"image"`)) {
		return v, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return v, nil, nil
	}
	var images []model.Image
	var walk func(x any, depth int) (any, error)
	walk = func(x any, depth int) (any, error) {
		if depth > maxImageScan {
			return x, nil
		}
		switch y := x.(type) {
		case map[string]any:
			data, isData := y["data"].(string)
			if t, _ := y["type"].(string); t == "image" && isData {
				raw, err := base64.StdEncoding.DecodeString(data)
				if err != nil {
					return nil, fault.Wrap(err, fault.PhaseContext, vision.KindBadImage, "a tool result's image data is not base64").
						WithHint("send image data as standard base64")
				}
				im, err := vision.Prepare(raw, lim)
				if err != nil {
					return nil, err
				}
				images = append(images, im)
				return map[string]any{"type": "image", "image": "sha256:" + im.SHA256, "width": im.Width, "height": im.Height, "media_type": im.MediaType}, nil
			}
			for k, e := range y {
				w, err := walk(e, depth+1)
				if err != nil {
					return nil, err
				}
				y[k] = w
			}
			return y, nil
		case []any:
			for i, e := range y {
				w, err := walk(e, depth+1)
				if err != nil {
					return nil, err
				}
				y[i] = w
			}
			return y, nil
		}
		return x, nil
	}
	out, err := walk(x, 0)
	if err != nil {
		return nil, nil, err
	}
	if len(images) == 0 {
		return v, nil, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "cannot encode the tool result")
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), images, nil
}

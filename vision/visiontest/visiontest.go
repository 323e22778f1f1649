// Package visiontest makes small images of each format vision reads, for
// tests: PNG, JPEG and GIF with the standard library's encoders, and a
// lossless WebP (VP8L) of one colour written bit by bit, since Go has no
// WebP encoder.
package visiontest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// Solid returns a w×h image of colour c encoded as format ("png",
// "jpeg", "gif" or "webp"); it panics on another format.
func Solid(format string, w, h int, c color.NRGBA) []byte {
	if format == "webp" {
		return webpSolid(w, h, c)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	default:
		panic("visiontest: unknown format " + format)
	}
	if err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// bitWriter writes bits least significant first, as VP8L reads them.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (b *bitWriter) write(v uint64, n uint) {
	b.acc |= v << b.nacc
	b.nacc += n
	for b.nacc >= 8 {
		b.out = append(b.out, byte(b.acc))
		b.acc >>= 8
		b.nacc -= 8
	}
}

func (b *bitWriter) bytes() []byte {
	if b.nacc > 0 {
		b.out = append(b.out, byte(b.acc))
	}
	return b.out
}

// webpSolid writes a lossless WebP of one colour: no transform, no
// colour cache, no meta prefix codes, and five "simple" prefix codes of
// one symbol each (green, red, blue, alpha, distance), so every pixel
// takes zero bits (the VP8L bitstream, RFC 9649 section 3).
func webpSolid(w, h int, c color.NRGBA) []byte {
	var bw bitWriter
	bw.write(0x2f, 8)         // signature
	bw.write(uint64(w-1), 14) // image_width - 1
	bw.write(uint64(h-1), 14) // image_height - 1
	bw.write(1, 1)            // alpha_is_used
	bw.write(0, 3)            // version
	bw.write(0, 1)            // no transform
	bw.write(0, 1)            // no colour cache
	bw.write(0, 1)            // no meta prefix codes
	for _, sym := range []uint8{c.G, c.R, c.B, c.A, 0} {
		bw.write(1, 1) // simple code
		bw.write(0, 1) // one symbol
		bw.write(1, 1) // an 8-bit symbol
		bw.write(uint64(sym), 8)
	}
	data := bw.bytes()
	var buf bytes.Buffer
	chunk := len(data)
	pad := chunk % 2
	buf.WriteString("RIFF")
	binary.Write(&buf, binary.LittleEndian, uint32(4+8+chunk+pad))
	buf.WriteString("WEBPVP8L")
	binary.Write(&buf, binary.LittleEndian, uint32(chunk))
	buf.Write(data)
	if pad == 1 {
		buf.WriteByte(0)
	}
	return buf.Bytes()
}

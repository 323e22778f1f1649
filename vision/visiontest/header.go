package visiontest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// PNGHeader returns the start of a PNG that declares w×h pixels: the
// signature and its IHDR chunk, nothing more. It inspects as a w×h PNG
// (image.DecodeConfig reads no further), so a test can offer an image
// above a pixel bound without making one.
func PNGHeader(w, h int) []byte {
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, uint32(w))
	binary.Write(&ihdr, binary.BigEndian, uint32(h))
	ihdr.Write([]byte{8, 2, 0, 0, 0}) // 8-bit RGB, no interlace
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&out, binary.BigEndian, uint32(ihdr.Len()-4))
	out.Write(ihdr.Bytes())
	binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	return out.Bytes()
}

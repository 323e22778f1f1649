// Package pdfgen writes small PDF documents for tests: pages of known text,
// an encrypted document and a document with one damaged page. It uses
// codeberg.org/go-pdf/fpdf and only the standard Helvetica font, so the
// text is Latin-1.
package pdfgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// Pages returns a PDF of n A4 pages; page i (1-based) holds the lines of
// text(i), one per line. Compression is off so tests can find objects.
func Pages(n int, text func(page int) []string) ([]byte, error) {
	return build(n, text, func(*fpdf.Fpdf) {})
}

// Encrypted returns a PDF of n pages that needs the user password to open.
func Encrypted(n int, password string) ([]byte, error) {
	return build(n, func(p int) []string { return []string{fmt.Sprintf("secret page %d", p)} },
		func(f *fpdf.Fpdf) { f.SetProtection(fpdf.CnProtectPrint, password, password+"-owner") })
}

// fixedDate makes the documents' bytes the same on every run.
var fixedDate = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func build(n int, text func(page int) []string, setup func(*fpdf.Fpdf)) ([]byte, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCompression(false)
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	setup(f)
	f.SetFont("Helvetica", "", 11)
	for p := 1; p <= n; p++ {
		f.AddPage()
		for _, line := range text(p) {
			f.CellFormat(0, 6, line, "", 1, "L", false, 0, "")
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DamagePage returns a copy of doc (from Pages) whose page number page
// (1-based) is replaced in the page tree by the document's font object: a
// reader counts the page but cannot load it, while the others stay
// readable. The bytes keep their length, so the cross-reference table
// stays right; it fails when the font's reference is longer than the
// page's.
func DamagePage(doc []byte, page int) ([]byte, error) {
	out := bytes.Clone(doc)
	m := regexp.MustCompile(`(?m)^(\d+) 0 obj\n<</Type /Font`).FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("pdfgen: no font object")
	}
	font := string(m[1]) + " 0 R"
	kids := regexp.MustCompile(`/Kids \[([^\]]*)\]`).FindSubmatchIndex(out)
	if kids == nil {
		return nil, fmt.Errorf("pdfgen: no page tree")
	}
	refs := regexp.MustCompile(`\d+ \d+ R`).FindAllIndex(out[kids[2]:kids[3]], -1)
	if page < 1 || page > len(refs) {
		return nil, fmt.Errorf("pdfgen: page %d not in the page tree", page)
	}
	lo, hi := kids[2]+refs[page-1][0], kids[2]+refs[page-1][1]
	if len(font) != hi-lo {
		return nil, fmt.Errorf("pdfgen: font reference %q does not fit page %d's %q", font, page, out[lo:hi])
	}
	copy(out[lo:hi], font)
	return out, nil
}

// Padded returns doc (from Pages) grown by about n bytes: an incremental
// update appends a stream object of n bytes that nothing refers to, a
// cross-reference section for it and a trailer pointing back at doc's.
// Readers open it as doc (the same pages and text); it stands for a PDF
// made large by embedded data, such as images on other pages. The
// stream's bytes are letters from a fixed seed, so the same arguments
// give the same document.
func Padded(doc []byte, n int) ([]byte, error) {
	size := regexp.MustCompile(`/Size (\d+)`).FindAllSubmatch(doc, -1)
	root := regexp.MustCompile(`/Root (\d+ \d+ R)`).FindAllSubmatch(doc, -1)
	start := regexp.MustCompile(`startxref\s+(\d+)`).FindAllSubmatch(doc, -1)
	if size == nil || root == nil || start == nil {
		return nil, fmt.Errorf("pdfgen: no trailer")
	}
	obj, err := strconv.Atoi(string(size[len(size)-1][1]))
	if err != nil {
		return nil, fmt.Errorf("pdfgen: trailer size: %w", err)
	}
	var b bytes.Buffer
	b.Grow(len(doc) + n + 256)
	b.Write(doc)
	if !bytes.HasSuffix(doc, []byte("\n")) {
		b.WriteByte('\n')
	}
	off := b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<< /Length %d >>\nstream\n", obj, n)
	rng := rand.New(rand.NewPCG(uint64(n), 33))
	for i := range n {
		if i%80 == 79 {
			b.WriteByte('\n')
			continue
		}
		b.WriteByte('a' + byte(rng.IntN(26)))
	}
	b.WriteString("\nendstream\nendobj\n")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n%d 1\n%010d 00000 n \ntrailer\n<< /Size %d /Root %s /Prev %s >>\nstartxref\n%d\n%%%%EOF\n",
		obj, off, obj+1, root[len(root)-1][1], start[len(start)-1][1], xref)
	return b.Bytes(), nil
}

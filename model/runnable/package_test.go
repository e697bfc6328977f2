package runnable

import (
	"archive/zip"
	"bytes"
	"testing"
)

// ooxmlPackage is a Word/Excel/PowerPoint package as Office writes it:
// [Content_Types].xml naming main as the type of parts[0], the package
// relationships, and each part (a few bytes of XML).
func ooxmlPackage(t *testing.T, main string, parts ...string) string {
	t.Helper()
	types := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/` + parts[0] + `" ContentType="` + main + `"/></Types>`
	files := [][2]string{
		{"[Content_Types].xml", types},
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="` + parts[0] + `"/></Relationships>`},
	}
	for _, p := range parts {
		files = append(files, [2]string{p, `<?xml version="1.0"?><x/>`})
	}
	return zipOf(t, files, zip.Deflate)
}

// odfPackage is an OpenDocument package: the mimetype entry first and
// stored, then the parts.
func odfPackage(t *testing.T, mimetype string, parts ...string) string {
	t.Helper()
	files := [][2]string{{"mimetype", mimetype}, {"META-INF/manifest.xml", `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`}}
	for _, p := range parts {
		files = append(files, [2]string{p, `<?xml version="1.0"?><x/>`})
	}
	return zipOf(t, files, zip.Store)
}

func zipOf(t *testing.T, files [][2]string, method uint16) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, f := range files {
		w, err := z.CreateHeader(&zip.FileHeader{Name: f[0], Method: method})
		must(t, err)
		_, err = w.Write([]byte(f[1]))
		must(t, err)
	}
	must(t, z.Close())
	return b.String()
}

package runnable

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// maxPart is how much of one package part (an OOXML [Content_Types].xml,
// an ODF mimetype) is read: real ones are a few kilobytes.
const maxPart = 1 << 20

// ooxmlMain is the content type of the main part each OOXML name needs:
// a .docx must be a Word document, not a workbook renamed.
var ooxmlMain = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
}

// macroTypes are words of the content types that carry code in an OOXML
// package: the VBA project and its data, every macro-enabled main type
// (.docm, .xlsm, .pptm and their templates and add-ins: Office loads
// them by this type, whatever the extension), and ActiveX controls.
var macroTypes = []string{"vbaproject", "vbadata", "macroenabled", "activex"}

// checkOOXML refuses a Word, Excel or PowerPoint package unless it is a
// zip whose [Content_Types].xml names the main type its name says and
// nothing that carries macros, and that holds no vbaProject.bin.
func checkOOXML(r io.ReaderAt, size int64, ext string) error {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return notKind(ooxml, "not a readable zip package ("+err.Error()+")")
	}
	var types []byte
	for _, f := range z.File {
		name := strings.ToLower(f.Name)
		if strings.HasSuffix(name, "vbaproject.bin") {
			return macros(f.Name)
		}
		if name == "[content_types].xml" { // every copy: a zip may hold two
			part, err := readPart(f)
			if err != nil {
				return err
			}
			types = append(types, part...)
		}
	}
	if types == nil {
		return notKind(ooxml, "a zip without [Content_Types].xml")
	}
	lower := strings.ToLower(string(types))
	for _, w := range macroTypes {
		if strings.Contains(lower, w) {
			return macros("[Content_Types].xml names " + w)
		}
	}
	if !strings.Contains(lower, ooxmlMain[ext]) {
		return notKind(ooxml, "not the document its name says ([Content_Types].xml has no "+ooxmlMain[ext]+")")
	}
	return nil
}

// odfTypes is the mimetype entry each ODF name needs.
var odfTypes = map[string]string{
	".odt": "application/vnd.oasis.opendocument.text",
	".ods": "application/vnd.oasis.opendocument.spreadsheet",
	".odp": "application/vnd.oasis.opendocument.presentation",
}

// checkODF refuses an OpenDocument package unless its mimetype entry is
// the one its name says and it holds no Basic/ or Scripts/ entries (where
// LibreOffice keeps macros and scripts).
func checkODF(r io.ReaderAt, size int64, ext string) error {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return notKind(odf, "not a readable zip package ("+err.Error()+")")
	}
	var mt []byte
	for _, f := range z.File {
		name := strings.ToLower(strings.TrimLeft(f.Name, "/"))
		if strings.HasPrefix(name, "basic/") || strings.HasPrefix(name, "scripts/") {
			return macros(f.Name)
		}
		if name == "mimetype" {
			if mt != nil {
				return notKind(odf, "a zip with two mimetype entries")
			}
			if mt, err = readPart(f); err != nil {
				return err
			}
		}
	}
	if got := string(bytes.TrimSpace(mt)); got != odfTypes[ext] {
		return notKind(odf, fmt.Sprintf("not the document its name says (mimetype %q, want %s)", got, odfTypes[ext]))
	}
	return nil
}

// readPart is one part of a package, at most maxPart bytes of it.
func readPart(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, &Refused{Reason: "is not a readable office package (" + f.Name + ": " + err.Error() + ")"}
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxPart))
	if err != nil {
		return nil, &Refused{Reason: "is not a readable office package (" + f.Name + ": " + err.Error() + ")"}
	}
	return b, nil
}

// macros is the refusal of a package that can run code when opened.
func macros(what string) error {
	return &Refused{Reason: "is an office document with macros or controls (" + what + ")"}
}

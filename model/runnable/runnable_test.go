package runnable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// Everything the allow list opens, by name and content together, and
// every attack of issue 35 item 10: names the old block list missed,
// launcher markers it did not see, content that is not what the name
// says, office packages with macros.
func TestCheckFile(t *testing.T) {
	pic := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var pngB, jpgB, gifB bytes.Buffer
	must(t, png.Encode(&pngB, pic))
	must(t, jpeg.Encode(&jpgB, pic, nil))
	must(t, gif.Encode(&gifB, pic, nil))
	pdfB := "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"
	docx := ooxmlPackage(t, ooxmlMain[".docx"], "word/document.xml")
	for _, tc := range []struct {
		name, content string
		refused       string // part of the reason; "" when opened
	}{
		// Allowed: each kind, sniffed.
		{"report.pdf", pdfB, ""},
		{"photo.PNG", pngB.String(), ""},
		{"photo.jpg", jpgB.String(), ""},
		{"photo.jpeg", jpgB.String(), ""},
		{"anim.gif", gifB.String(), ""},
		{"pic.webp", "RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00" + strings.Repeat("\x00", 14), ""},
		{"pic.bmp", bmp(), ""},
		{"scan.tiff", "II*\x00\x08\x00\x00\x00" + strings.Repeat("\x00", 16), ""},
		{"notes.txt", "plain notes\nwith two lines\n", ""},
		{"notes.txt", "Hi, Ann\nsee you, Bob\nbye, then\n", ""}, // sniffs as CSV: still plain text
		{"notes.txt", "#hashtag is not a shebang", ""},
		{"x.sh.txt", "hello", ""},
		{"song.mp3", "ID3\x04\x00\x00\x00\x00\x00\x0a" + strings.Repeat("\x00", 10) + "\xff\xfb\x90\x64" + strings.Repeat("\x00", 20), ""},
		{"song.ogg", ogg("\x01vorbis"), ""},
		{"song.flac", "fLaC\x00\x00\x00\x22" + strings.Repeat("\x00", 34), ""},
		{"memo.wav", "RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00" + strings.Repeat("\x00", 16), ""},
		{"memo.m4a", "\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00M4A mp42isom\x00\x00\x00\x00", ""},
		{"clip.mp4", "\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2", ""},
		{"clip.webm", ebml("webm"), ""},
		{"film.mkv", ebml("matroska"), ""},
		{"letter.docx", docx, ""},
		{"sheet.xlsx", ooxmlPackage(t, ooxmlMain[".xlsx"], "xl/workbook.xml"), ""},
		{"letter.odt", odfPackage(t, odfTypes[".odt"], "content.xml"), ""},

		// Names the block list missed, and every other name off the list.
		{"app.jnlp", "<jnlp/>", "its name ends in .jnlp"},
		{"print.ps", "%!PS-Adobe-3.0\n", "its name ends in .ps"},
		{"fig.eps", "%!PS-Adobe-3.0 EPSF-3.0\n", "its name ends in .eps"},
		{"logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'><script>x()</script></svg>", "its name ends in .svg"},
		{"page.html", "<html><script>x()</script></html>", "its name ends in .html"},
		{"page.xhtml", "<html xmlns='http://www.w3.org/1999/xhtml'/>", "its name ends in .xhtml"},
		{"saved.mht", "MIME-Version: 1.0\n", "its name ends in .mht"},
		{"tool.pyz", "PK\x03\x04", "its name ends in .pyz"},
		{"mod.mjs", "import x from 'y'", "its name ends in .mjs"},
		{"app.snap", "hsqs", "its name ends in .snap"},
		{"app.flatpak", "xdg-app", "its name ends in .flatpak"},
		{"shell.terminal", "<?xml version='1.0'?><plist/>", "its name ends in .terminal"},
		{"do.scpt", "FasdUAS", "its name ends in .scpt"},
		{"do.workflow", "", "its name ends in .workflow"},
		{"vpn.mobileconfig", "<?xml version='1.0'?><plist/>", "its name ends in .mobileconfig"},
		{"letter.docm", docx, "its name ends in .docm"},
		{"sheet.xlsm", docx, "its name ends in .xlsm"},
		{"old.doc", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "its name ends in .doc"},
		{"setup.exe", "anything", "its name ends in .exe"},
		{"SETUP.EXE. ", "anything", "its name ends in .exe"},
		{"x.txt.sh", "hello", "its name ends in .sh"},
		{"invoice.pdf.desktop", pdfB, "its name ends in .desktop"},
		{"README", "hello", "it has no extension"},

		// Content that runs, whatever the name.
		{"invoice.pdf", "\x7fELF\x02\x01\x01", "Linux program (ELF) (by its content)"},
		{"invoice.pdf", "MZ\x90\x00", "PE"},
		{"invoice.pdf", "\xcf\xfa\xed\xfe", "Mach-O"},
		{"notes.txt", "#!/bin/sh\nrm -rf ~\n", "script (#!)"},
		{"notes.txt", "\xef\xbb\xbf#!/bin/sh\n", "script (#!)"},
		{"notes.txt", "# a comment\n\n[Desktop Entry]\nExec=sh -c x\n", "[Desktop Entry]"},
		{"notes.txt", "leading junk\nmore junk\n[Desktop Entry]\nExec=sh -c x\n", "[Desktop Entry]"},
		{"notes.txt", "[KDE Desktop Entry]\nExec=sh -c x\n", "[KDE Desktop Entry]"},
		{"notes.txt", "x\n  [Desktop Action evil]\nExec=sh -c x\n", "[Desktop Action"},
		{"notes.txt", strings.Repeat("a long harmless line\n", 400) + "[Desktop Entry]\nExec=x\n", "[Desktop Entry]"},
		{"invoice.pdf", pdfB + "\n[Desktop Entry]\nExec=x\n", "[Desktop Entry]"},

		// Content that is not the kind the name says.
		{"photo.png", pdfB, "named as a picture but its content is application/pdf"},
		{"photo.png", "<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml"},
		{"report.pdf", pngB.String(), "named as a PDF but its content is image/png"},
		{"notes.txt", "<!DOCTYPE html><html><script>x()</script></html>", "text/html"},
		{"notes.txt", "<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>", "named as plain text"},
		{"notes.txt", "%!PS-Adobe-3.0\n", "postscript"},
		{"notes.txt", pngB.String(), "image/png"},
		{"notes.txt", strings.Repeat("text ", 1000) + "\x00\x7fELF", "NUL byte"},
		{"song.mp3", pdfB, "named as audio"},
		{"clip.mp4", "\x7fELF", "ELF"},

		// Office packages: macros, whatever the extension says, and
		// packages that are not what their name says.
		{"letter.docx", ooxmlPackage(t, ooxmlMain[".docx"]+`"/><Override PartName="/word/vbaProject.bin" ContentType="application/vnd.ms-office.vbaProject`, "word/document.xml"), "vbaproject"},
		{"letter.docx", ooxmlPackage(t, "application/vnd.ms-word.document.macroEnabled.main+xml", "word/document.xml"), "macroenabled"},
		{"sheet.xlsx", ooxmlPackage(t, "application/vnd.ms-excel.sheet.macroEnabled.main+xml", "xl/workbook.xml"), "macroenabled"},
		{"letter.docx", ooxmlPackage(t, ooxmlMain[".docx"], "word/document.xml", "word/vbaProject.bin"), "vbaProject.bin"},
		{"letter.docx", ooxmlPackage(t, ooxmlMain[".docx"]+`"/><Override PartName="/word/activeX/activeX1.xml" ContentType="application/vnd.ms-office.activeX+xml`, "word/document.xml"), "activex"},
		{"sheet.xlsx", docx, "not the document its name says"},
		{"letter.docx", zipOf(t, [][2]string{{"[Content_Types].xml", "<Types/>"}, {"[Content_Types].xml", "<Types><Default Extension=\"bin\" ContentType=\"application/vnd.ms-office.vbaProject\"/></Types>"}}, 0), "vbaproject"},
		{"letter.odt", zipOf(t, [][2]string{{"mimetype", odfTypes[".odt"]}, {"mimetype", "application/x-other"}}, 0), "two mimetype entries"},
		{"letter.docx", pdfB, "not a readable zip package"},
		{"letter.docx", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + strings.Repeat("\x00", 504), "not a readable zip package"},
		{"letter.odt", odfPackage(t, odfTypes[".odt"], "content.xml", "Basic/Standard/Module1.xml"), "Basic/Standard/Module1.xml"},
		{"letter.odt", odfPackage(t, odfTypes[".odt"], "content.xml", "Scripts/python/x.py"), "Scripts/python/x.py"},
		{"sheet.ods", odfPackage(t, odfTypes[".odt"], "content.xml"), "not the document its name says"},
	} {
		err := CheckFile(tc.name, strings.NewReader(tc.content), int64(len(tc.content)))
		var r *Refused
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("CheckFile(%q, %.40q) = %v, want nil", tc.name, tc.content, err)
		case tc.refused != "" && (!errors.As(err, &r) || !strings.Contains(strings.ToLower(r.Reason), strings.ToLower(tc.refused))):
			t.Errorf("CheckFile(%q, %.40q) = %v, want a refusal saying %q", tc.name, tc.content, err, tc.refused)
		case r != nil && (r.Name != tc.name || !strings.HasSuffix(r.Error(), "save it with S and open it yourself")):
			t.Errorf("CheckFile(%q): refusal %q does not name the file and say what to do", tc.name, r.Error())
		}
	}
}

// CheckName, asked before anything is fetched, is the name half alone.
func TestCheckName(t *testing.T) {
	for name, ok := range map[string]bool{"a.pdf": true, "A.DOCX": true, "a.svg": false, "a.jnlp": false, "a": false, "a.pdf.exe": false} {
		if err := CheckName(name); (err == nil) != ok {
			t.Errorf("CheckName(%q) = %v, want allowed %v", name, err, ok)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// bmp is a 1×1 24-bit Windows bitmap.
func bmp() string {
	b := make([]byte, 58)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[2:], 58)
	binary.LittleEndian.PutUint32(b[10:], 54)
	binary.LittleEndian.PutUint32(b[14:], 40) // BITMAPINFOHEADER
	binary.LittleEndian.PutUint32(b[18:], 1)
	binary.LittleEndian.PutUint32(b[22:], 1)
	binary.LittleEndian.PutUint16(b[26:], 1)
	binary.LittleEndian.PutUint16(b[28:], 24)
	return string(b)
}

// ogg is the first page of an Ogg stream whose first packet starts with
// codec.
func ogg(codec string) string {
	page := "OggS\x00\x02" + strings.Repeat("\x00", 20) + "\x01\x1e" + codec
	return page + strings.Repeat("\x00", 30)
}

// ebml is the start of a Matroska file of docType.
func ebml(docType string) string {
	return "\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82" +
		string([]byte{byte(0x80 | len(docType))}) + docType + "\x42\x87\x81\x02\x42\x85\x81\x02"
}

// Package runnable decides what the TUI's open (enter) may hand to the
// desktop's opener. It is an allow list, not a block list: a file is
// opened only when its name is one of a few kinds of document (PDF,
// raster pictures, plain text, common audio and video, office documents)
// and its content, sniffed, is that same kind; office packages must hold
// no macros. Everything else is "save it with S and open it yourself".
// The media type the mail declares is never read (a sender writes
// "application/pdf" on anything), and the name alone is not enough
// either: openers choose a program by the name or by the content,
// depending on the desktop, so both must agree on something harmless.
package runnable

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// HeadBytes is how much of a file's start is sniffed (the rest is read
// only for text, which is scanned whole, and office packages, whose
// central directory is at the end).
const HeadBytes = 4096

// Refused says why a file is not opened.
type Refused struct {
	Name   string
	Reason string
}

func (r *Refused) Error() string {
	return fmt.Sprintf("not opened: %s %s; save it with S and open it yourself", r.Name, r.Reason)
}

// kind is one sort of document enter opens.
type kind int

const (
	pdf kind = iota
	picture
	text
	audio
	video
	ooxml
	odf
)

// what a kind is called in a refusal.
var kindNames = map[kind]string{
	pdf: "a PDF", picture: "a picture", text: "plain text", audio: "audio", video: "a video",
	ooxml: "an office document", odf: "an office document",
}

// allowed is every name ending enter opens, with the kind its content
// must be. Each kind's viewers show the file; none runs what it holds.
// Left out on purpose: SVG, HTML and XHTML (scripts), PostScript (a
// programming language), .csv (spreadsheets evaluate formulas), legacy
// .doc/.xls/.ppt (OLE files can hold macros) and every macro-enabled
// office type.
var allowed = map[string]kind{
	".pdf": pdf,
	".png": picture, ".jpg": picture, ".jpeg": picture, ".jpe": picture, ".gif": picture, ".webp": picture,
	".bmp": picture, ".tif": picture, ".tiff": picture,
	".txt": text, ".text": text, ".log": text,
	".mp3": audio, ".ogg": audio, ".oga": audio, ".opus": audio, ".flac": audio, ".wav": audio, ".m4a": audio,
	".mp4": video, ".m4v": video, ".webm": video, ".mkv": video, ".ogv": video,
	".docx": ooxml, ".xlsx": ooxml, ".pptx": ooxml,
	".odt": odf, ".ods": odf, ".odp": odf,
}

// extOf is name's last extension in lower case, trailing dots and spaces
// ignored (Windows drops them: "x.exe. " runs as x.exe). Only the last
// one counts: "x.sh.txt" is a text file, "x.txt.sh" a script.
func extOf(name string) string {
	return strings.ToLower(filepath.Ext(strings.TrimRight(name, " .")))
}

// CheckName returns a *Refused unless name ends in an extension on the
// allow list. It is asked before anything is fetched.
func CheckName(name string) error {
	_, err := kindOf(name)
	return err
}

func kindOf(name string) (kind, error) {
	ext := extOf(name)
	k, ok := allowed[ext]
	if !ok {
		by := "it has no extension"
		if ext != "" {
			by = "its name ends in " + ext
		}
		return 0, &Refused{Name: name, Reason: "is not a kind enter opens (" + by + "; enter opens PDFs, pictures, plain text, audio, video and office documents without macros)"}
	}
	return k, nil
}

// CheckFile returns a *Refused unless the file named name, whose bytes r
// holds (size of them), is a kind on the allow list by its name and by
// its content alike; nil when it may be opened. Other errors are read
// failures.
func CheckFile(name string, r io.ReaderAt, size int64) error {
	k, err := kindOf(name)
	if err != nil {
		return err
	}
	head := make([]byte, min(size, HeadBytes))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if why := runs(head); why != "" {
		return &Refused{Name: name, Reason: "is " + why + " (by its content)"}
	}
	switch k {
	case text:
		err = checkText(head, r, size)
	case ooxml:
		err = checkOOXML(r, size, extOf(name))
	case odf:
		err = checkODF(r, size, extOf(name))
	default:
		err = checkSniffed(head, k)
	}
	if err != nil {
		var ref *Refused
		if errors.As(err, &ref) {
			ref.Name = name
			return ref
		}
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}

// notKind is the refusal of content that is not the kind the name says.
func notKind(k kind, what string) error {
	return &Refused{Reason: "is named as " + kindNames[k] + " but its content is " + what}
}

package mcpprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"unibox/model"
	"unibox/model/textsafe"
)

// jsonString is v when it is a string, else "" (mailparser writes false
// for an absent html part).
func jsonString(v any) string {
	s, _ := v.(string)
	return s
}

// jsonInt reads a whole JSON number (or numeric string).
func jsonInt(v any) (int, bool) {
	switch t := v.(type) {
	case json.Number:
		n, err := t.Int64()
		if err != nil {
			f, ferr := t.Float64()
			if ferr != nil || f != float64(int64(f)) {
				return 0, false
			}
			n = int64(f)
		}
		return int(n), true
	case float64:
		if t != float64(int64(t)) {
			return 0, false
		}
		return int(t), true
	}
	return 0, false
}

// jsonAddresses reads an address field in any of the shapes servers
// produce: "Name <addr>" (or a comma-separated list of them), {name,
// address}, mailparser's {value: [{name, address}], text}, or an array of
// any of these.
func jsonAddresses(v any) []model.Address {
	switch t := v.(type) {
	case string:
		return addresses(t)
	case []any:
		var out []model.Address
		for _, e := range t {
			out = append(out, jsonAddresses(e)...)
		}
		return out
	case map[string]any:
		if val, ok := t["value"]; ok {
			return jsonAddresses(val)
		}
		name, addr := jsonString(t["name"]), jsonString(t["address"])
		if name == "" && addr == "" {
			return addresses(jsonString(t["text"]))
		}
		return []model.Address{{Name: textsafe.Line(name), Address: textsafe.Line(addr)}}
	}
	return nil
}

// parseJSONFolders reads a folders answer: mcp-mail-server's node-imap
// tree ({"INBOX": {"name": "INBOX", "attribs": [], "children": {...}}}),
// or a list of names or of {path|name, specialUse, ...} objects.
func parseJSONFolders(text string) ([]model.Folder, error) {
	v, err := decodeJSON(text)
	if err != nil {
		return nil, err
	}
	var out []model.Folder
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			f, ok := jsonFolder("", e)
			if !ok {
				return nil, fmt.Errorf("folder %d is unreadable", i+1)
			}
			out = append(out, f)
		}
	case map[string]any:
		if list, ok := t["mailboxes"]; ok {
			return parseJSONFolders(mustJSON(list))
		}
		out = folderTree(t)
	default:
		return nil, fmt.Errorf("a JSON %T, not folders", v)
	}
	if len(out) == 0 {
		return nil, errors.New("no folders")
	}
	return out, nil
}

// folderTree flattens a node-imap box tree, INBOX first, then by name.
// Boxes marked \Noselect hold no mail and are left out.
func folderTree(tree map[string]any) []model.Folder {
	var out []model.Folder
	for key, node := range tree {
		f, ok := jsonFolder(key, node)
		box, _ := node.(map[string]any)
		if ok && box["selectable"] != false {
			out = append(out, f)
		}
		if children, ok := box["children"].(map[string]any); ok {
			out = append(out, folderTree(children)...)
		}
	}
	slices.SortFunc(out, func(a, b model.Folder) int {
		switch {
		case model.SameFolder(a.Name, defaultFolder):
			return -1
		case model.SameFolder(b.Name, defaultFolder):
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// jsonFolder reads one folder: a name, or an object naming it.
func jsonFolder(key string, v any) (model.Folder, bool) {
	if s, ok := v.(string); ok {
		return model.Folder{Name: textsafe.Line(s)}, s != ""
	}
	m, ok := v.(map[string]any)
	if !ok {
		return model.Folder{}, false
	}
	name := jsonString(m["path"])
	if name == "" {
		name = jsonString(m["name"])
	}
	if name == "" {
		name = key
	}
	f := model.Folder{Name: textsafe.Line(name), SpecialUse: specialUse(jsonString(m["specialUse"]))}
	attrs, _ := m["attribs"].([]any)
	if flags, ok := m["flags"].([]any); ok {
		attrs = append(attrs, flags...)
	}
	for _, a := range attrs {
		if su := specialUse(jsonString(a)); su != "" && f.SpecialUse == "" {
			f.SpecialUse = su
		}
	}
	for _, k := range []string{"totalMessages", "exists", "messages"} {
		if n, ok := jsonInt(m[k]); ok && n >= 0 {
			f.Total = uint32(n)
			break
		}
	}
	for _, k := range []string{"unseenMessages", "unseen", "unread"} {
		if n, ok := jsonInt(m[k]); ok && n >= 0 {
			f.Unread = uint32(n)
			break
		}
	}
	return f, f.Name != ""
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Package folder is another folder of one account on screen in place of
// the unified inbox (`o`, then a folder): which folder and which visit
// (View), its loading (the store's rows at once, then a sync a step at
// a time, or a listing where the account cannot sync), paging below the
// loaded rows, the filter's stored matches, and the account following
// it for push. An answer for an earlier visit carries that visit and is
// dropped. The root keeps the unified inbox aside while a folder is on
// screen (ui/tui/folders.go) and applies the pages to the list.
package folder

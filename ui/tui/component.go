package tui

// Each component keeps the contract, or the package does not build.
var (
	_ component[listModel] = listModel{}
	_ component[viewer]    = viewer{}
	_ component[composer]  = composer{}
	_ input[filterBox]     = filterBox{}
	// The screens of their own (screens.go).
	_ screen = detailsBox{}
	_ screen = pickerBox{}
	_ screen = snoozeBox{}
	_ screen = folderPicker{}
	_ screen = draftsBox{}
)

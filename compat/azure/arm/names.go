package arm

// ValidName reports whether name has min to max characters, all ASCII
// letters, digits or hyphens: the shape of Event Grid resource names. Each
// face words its own error, as the resource types' rules differ in length
// and reserved prefixes.
func ValidName(name string, min, max int) bool {
	if len(name) < min || len(name) > max {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

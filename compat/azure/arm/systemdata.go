package arm

import "time"

// SystemData is the ARM systemData block every Event Grid resource carries:
// who created it and who last changed it, and when.
type SystemData struct {
	CreatedBy          string `json:"createdBy"`
	CreatedByType      string `json:"createdByType"`
	CreatedAt          string `json:"createdAt"`
	LastModifiedBy     string `json:"lastModifiedBy"`
	LastModifiedByType string `json:"lastModifiedByType"`
	LastModifiedAt     string `json:"lastModifiedAt"`
}

// systemActor is who GridBridge says made every change.
const systemActor = "gridbridge"

// Time is t as ARM writes a timestamp.
func Time(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// SystemDataAt is the block of a resource created at created and last
// modified at modified, both by GridBridge.
func SystemDataAt(created, modified time.Time) SystemData {
	return SystemData{CreatedBy: systemActor, CreatedByType: "User", CreatedAt: Time(created),
		LastModifiedBy: systemActor, LastModifiedByType: "User", LastModifiedAt: Time(modified)}
}

// NewSystemData stamps a resource created at now.
func NewSystemData(now time.Time) *SystemData {
	s := SystemDataAt(now, now)
	return &s
}

// Touch records a modification at now, keeping the creation stamp.
func (s *SystemData) Touch(now time.Time) *SystemData {
	if s == nil {
		return NewSystemData(now)
	}
	c := *s
	c.LastModifiedAt = Time(now)
	return &c
}

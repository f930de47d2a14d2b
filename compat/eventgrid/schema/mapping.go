package schema

import (
	"encoding/json"
	"errors"
	"strings"
)

// InputMapping is a custom-schema topic's inputSchemaMapping (type "Json"):
// which top-level field of a published object supplies each Event Grid
// envelope field, and the defaults for three of them.
type InputMapping struct {
	ID          *MappedField
	Topic       *MappedField
	EventTime   *MappedField
	EventType   *MappedField
	Subject     *MappedField
	DataVersion *MappedField
}

// MappedField is one entry of the mapping. DefaultValue is honoured only for
// eventType, subject and dataVersion, as in Azure.
type MappedField struct {
	SourceField  string `json:"sourceField,omitempty"`
	DefaultValue string `json:"defaultValue,omitempty"`
}

// mapped reports whether f names a source field: the CLI sends every key as
// an empty object when any is given, and an empty object maps nothing.
func (f *MappedField) mapped() bool { return f != nil && f.SourceField != "" }

type mappingProperties struct {
	ID          *MappedField `json:"id,omitempty"`
	Topic       *MappedField `json:"topic,omitempty"`
	EventTime   *MappedField `json:"eventTime,omitempty"`
	EventType   *MappedField `json:"eventType,omitempty"`
	Subject     *MappedField `json:"subject,omitempty"`
	DataVersion *MappedField `json:"dataVersion,omitempty"`
}

type mappingJSON struct {
	Type       *string            `json:"inputSchemaMappingType"`
	Properties *mappingProperties `json:"properties,omitempty"`
}

// ErrMappingType is returned for an inputSchemaMappingType other than Json.
var ErrMappingType = errors.New("inputSchemaMapping.inputSchemaMappingType must be 'Json'")

// UnmarshalJSON reads the ARM shape; the type discriminator may come in any
// casing.
func (m *InputMapping) UnmarshalJSON(b []byte) error {
	var w mappingJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Type == nil || !strings.EqualFold(*w.Type, "Json") {
		return ErrMappingType
	}
	*m = InputMapping{}
	if p := w.Properties; p != nil {
		*m = InputMapping{ID: p.ID, Topic: p.Topic, EventTime: p.EventTime,
			EventType: p.EventType, Subject: p.Subject, DataVersion: p.DataVersion}
	}
	return nil
}

// MarshalJSON writes the ARM shape with the canonical discriminator, which
// the Go SDK matches case-sensitively.
func (m InputMapping) MarshalJSON() ([]byte, error) {
	typ := "Json"
	return json.Marshal(mappingJSON{Type: &typ, Properties: &mappingProperties{
		ID: m.ID, Topic: m.Topic, EventTime: m.EventTime,
		EventType: m.EventType, Subject: m.Subject, DataVersion: m.DataVersion,
	}})
}

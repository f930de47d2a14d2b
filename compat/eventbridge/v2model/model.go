// Package v2model holds GridBridge's service description of Amazon EventBridge
// event buses v2 (EB-D2): a botocore service model that
//
//	aws configure add-model --service-name eventsv2 \
//	  --service-model file://compat/eventbridge/v2model/eventsv2/2026-09-16/service-2.json
//
// installs, so `aws eventsv2 …` commands run against GridBridge with
// --endpoint-url. The file sits where add-model writes it under ~/.aws/models
// (<service name>/<api version>/service-2.json), so the directory can also be
// put on AWS_DATA_PATH as it is.
package v2model

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Names the model and the server agree on.
const (
	// ServiceName is the CLI command group: `aws eventsv2 …`.
	ServiceName = "eventsv2"
	// APIVersion is the model's metadata.apiVersion and its directory.
	APIVersion = "2026-09-16"
	// TargetPrefix is metadata.targetPrefix: requests carry
	// X-Amz-Target: AWSEventsV2.<Operation>.
	TargetPrefix = "AWSEventsV2"
	// Path is the model's path inside this directory.
	Path = ServiceName + "/" + APIVersion + "/service-2.json"
)

// serviceModel is the content of service-2.json; a string, so nothing can
// change it.
//
//go:embed eventsv2/2026-09-16/service-2.json
var serviceModel string

// ServiceModel returns the content of service-2.json.
func ServiceModel() []byte { return []byte(serviceModel) }

// Model is the part of a botocore service model GridBridge checks itself
// against.
type Model struct {
	Metadata   Metadata             `json:"metadata"`
	Operations map[string]Operation `json:"operations"`
	Shapes     map[string]Shape     `json:"shapes"`
}

// Metadata is the model's metadata block.
type Metadata struct {
	APIVersion       string `json:"apiVersion"`
	EndpointPrefix   string `json:"endpointPrefix"`
	JSONVersion      string `json:"jsonVersion"`
	Protocol         string `json:"protocol"`
	SigningName      string `json:"signingName"`
	SignatureVersion string `json:"signatureVersion"`
	TargetPrefix     string `json:"targetPrefix"`
}

// Operation is one API operation.
type Operation struct {
	Name   string   `json:"name"`
	Input  ShapeRef `json:"input"`
	Output ShapeRef `json:"output"`
}

// ShapeRef names a shape.
type ShapeRef struct {
	Shape string `json:"shape"`
}

// Shape is a structure, list, map or scalar of the model.
type Shape struct {
	Type     string              `json:"type"`
	Required []string            `json:"required"`
	Members  map[string]ShapeRef `json:"members"`
	Member   *ShapeRef           `json:"member"`
	Key      *ShapeRef           `json:"key"`
	Value    *ShapeRef           `json:"value"`
	Enum     []string            `json:"enum"`
	Min      *float64            `json:"min"`
	Max      *float64            `json:"max"`
}

// Load parses the service model.
func Load() (*Model, error) {
	var m Model
	if err := json.Unmarshal([]byte(serviceModel), &m); err != nil {
		return nil, fmt.Errorf("v2model: %s is not valid JSON: %w", Path, err)
	}
	return &m, nil
}

package v2model

import (
	"bytes"
	"os"
	"testing"
)

// TestEB_D2_ModelIsConsistent checks what `aws configure add-model` and
// botocore rely on: the metadata the constants name, and every shape
// reference resolving.
func TestEB_D2_ModelIsConsistent(t *testing.T) {
	t.Parallel()
	onDisk, err := os.ReadFile(Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, ServiceModel()) {
		t.Fatal("the embedded model differs from the file")
	}
	m, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	md := m.Metadata
	if md.APIVersion != APIVersion || md.TargetPrefix != TargetPrefix || md.Protocol != "json" || md.JSONVersion != "1.1" ||
		md.SigningName != "events" || md.EndpointPrefix != ServiceName {
		t.Fatalf("metadata = %+v", md)
	}
	resolve := func(where, name string) {
		if _, ok := m.Shapes[name]; !ok {
			t.Errorf("%s refers to missing shape %q", where, name)
		}
	}
	for name, op := range m.Operations {
		if op.Name != name {
			t.Errorf("operation %s is named %s", name, op.Name)
		}
		resolve(name+" input", op.Input.Shape)
		resolve(name+" output", op.Output.Shape)
	}
	for name, s := range m.Shapes {
		for member, ref := range s.Members {
			resolve(name+"."+member, ref.Shape)
		}
		for _, req := range s.Required {
			if _, ok := s.Members[req]; !ok {
				t.Errorf("%s requires unknown member %s", name, req)
			}
		}
		for _, ref := range []*ShapeRef{s.Member, s.Key, s.Value} {
			if ref != nil {
				resolve(name, ref.Shape)
			}
		}
	}
}

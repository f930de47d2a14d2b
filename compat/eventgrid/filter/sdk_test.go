package filter

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/internal/facetest"
)

// testdata/all-operators-filter.json has one advanced filter of every
// operator, as the Go SDK sends them (the body shape of reference section 4.5).

// What GridBridge echoes must decode in armeventgrid/v2 v2.3.0 into the
// concrete filter types (the SDK falls back to the base type, losing the
// values, when operatorType is not spelled exactly) and back to the same filter.
func TestSDKDecodesEcho(t *testing.T) {
	t.Parallel()
	var fj FilterJSON
	if err := json.Unmarshal(facetest.Golden(t, "all-operators-filter.json"), &fj); err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(fj); err != nil {
		t.Fatalf("compile: %v", err)
	}
	echo, err := json.Marshal(fj)
	if err != nil {
		t.Fatal(err)
	}
	var sdk armeventgrid.EventSubscriptionFilter
	if err := json.Unmarshal(echo, &sdk); err != nil {
		t.Fatalf("SDK unmarshal: %v", err)
	}
	if len(sdk.AdvancedFilters) != len(operators()) {
		t.Fatalf("SDK sees %d advanced filters", len(sdk.AdvancedFilters))
	}
	for i, af := range sdk.AdvancedFilters {
		if reflect.TypeOf(af) == reflect.TypeOf(&armeventgrid.AdvancedFilter{}) {
			t.Errorf("filter %d (%s) decoded as the base type", i, fj.AdvancedFilters[i].OperatorType)
		}
	}
	if v := sdk.AdvancedFilters[6].(*armeventgrid.NumberInRangeAdvancedFilter).Values; *v[1][1] != 30 {
		t.Errorf("NumberInRange values lost: %v", v)
	}
	if v := sdk.AdvancedFilters[8].(*armeventgrid.BoolEqualsAdvancedFilter).Value; v == nil || !*v {
		t.Error("BoolEquals value lost")
	}
	if sdk.IsSubjectCaseSensitive != nil {
		t.Error("isSubjectCaseSensitive:false is not echoed")
	}
	if !*sdk.EnableAdvancedFilteringOnArrays || *sdk.SubjectBeginsWith != "/x" || len(sdk.IncludedEventTypes) != 2 {
		t.Errorf("plain fields lost: %+v", sdk)
	}

	// And what the SDK sends back decodes to the same filter.
	sent, err := json.Marshal(sdk)
	if err != nil {
		t.Fatal(err)
	}
	var again FilterJSON
	if err := json.Unmarshal(sent, &again); err != nil {
		t.Fatalf("unmarshal SDK body: %v", err)
	}
	if !reflect.DeepEqual(again, fj) {
		t.Errorf("SDK round trip changed the filter:\n got %+v\nwant %+v", again, fj)
	}
}

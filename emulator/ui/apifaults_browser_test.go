package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
	"github.com/gridbridge/gridbridge/testkit"
)

// The Faults view lists API faults beside delivery faults, in headless
// chromium against the binary: one injected through testkit shows with
// its service, operation and error and goes with its button; one added
// with the form ("fail the next 2 calls to sqs SendMessage with error
// InternalError") is in force in the emulator.
func TestDashboardAPIFaults(t *testing.T) {
	t.Parallel()
	chromium := testenv.Chromium(t)
	proc := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	base := proc.Endpoints["http"]
	emu := testkit.Connect(t, base)
	injected := emu.InjectAPIError(testkit.APIFault{Service: "events", Operation: "PutEvents", Error: "ThrottlingException", Count: 3})

	b := startBrowser(t, chromium)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.call("Page.navigate", map[string]any{"url": base + "/_emulator/ui/#/faults"}, nil)
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("#apifault-service")`)
	text := mainText(b)
	for _, want := range []string{"API faults", injected.ID, "PutEvents", "ThrottlingException", "3 of 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Faults view does not show %q:\n%s", want, text)
		}
	}
	checkAccessibility(t, b, "faults", "Add API fault")

	b.click(fmt.Sprintf("#remove-%s", injected.ID))
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("main").innerText.includes("No API faults")`)
	if left := emu.APIFaults(); len(left) != 0 {
		t.Fatalf("after clicking Remove the emulator has API faults %+v", left)
	}

	b.eval(`document.querySelector("#apifault-count").value = ""`, nil)
	b.click("#apifault-count")
	b.call("Input.insertText", map[string]any{"text": "2"}, nil)
	b.eval(`document.querySelector("#apifault-service").value = "sqs"`, nil)
	b.click("#apifault-operation")
	b.call("Input.insertText", map[string]any{"text": "SendMessage"}, nil)
	b.click("#apifault-error")
	b.call("Input.insertText", map[string]any{"text": "InternalError"}, nil)
	b.click("#apifault-add")
	b.waitFor(`document.body.dataset.ready === "faults" && document.querySelector("main").innerText.includes("SendMessage")`)
	got := emu.APIFaults()
	if len(got) != 1 || got[0].Service != "sqs" || got[0].Operation != "SendMessage" || got[0].Error != "InternalError" || got[0].Count != 2 {
		t.Fatalf("after the form the emulator has API faults %+v, want sqs SendMessage InternalError ×2", got)
	}
}

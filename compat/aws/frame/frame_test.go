package frame_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/aws/frame"
)

// testAPI answers errors as "<code>: <message>" with the request id in a
// header, so a test sees which of the API's errors the frame chose.
func testAPI(log *slog.Logger) *frame.API {
	coded := func(code string) func(string) error {
		return func(msg string) error { return errors.New(code + ": " + msg) }
	}
	return &frame.API{
		Name: "Test", MaxBody: 8, Log: log, NewID: func() string { return "req-1" },
		Unreadable: coded("Unreadable"), TooLarge: coded("TooLarge"), Internal: coded("Internal"),
		WriteError: func(w http.ResponseWriter, req frame.Request, err error) {
			w.Header().Set("X-Amzn-RequestId", req.ID)
			status := http.StatusBadRequest
			if strings.HasPrefix(err.Error(), "Internal") {
				status = http.StatusInternalServerError
			}
			http.Error(w, err.Error(), status)
		},
	}
}

func serve(h http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)))
	return rec
}

func TestFrameHandsTheOperationItsBodyAndID(t *testing.T) {
	t.Parallel()
	var got *frame.Request
	h := testAPI(nil).Handler(func(w http.ResponseWriter, req frame.Request) error {
		got = &req
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
	if rec := serve(h, "12345678"); rec.Code != http.StatusNoContent || got == nil || string(got.Body) != "12345678" || got.ID != "req-1" {
		t.Fatalf("answer %d, request %+v", rec.Code, got)
	}
}

func TestFrameRefusesABodyOverTheLimit(t *testing.T) {
	t.Parallel()
	h := testAPI(nil).Handler(func(http.ResponseWriter, frame.Request) error {
		t.Error("the operation ran on a body over the limit")
		return nil
	})
	rec := serve(h, "123456789")
	if rec.Code != http.StatusBadRequest || !strings.HasPrefix(rec.Body.String(), "TooLarge: ") || !strings.Contains(rec.Body.String(), "8 bytes") {
		t.Fatalf("answer %d %q", rec.Code, rec.Body)
	}
}

func TestFrameAnswersTheOperationsError(t *testing.T) {
	t.Parallel()
	h := testAPI(nil).Handler(func(http.ResponseWriter, frame.Request) error { return errors.New("NotFound: no such thing") })
	if rec := serve(h, ""); rec.Code != http.StatusBadRequest || rec.Body.String() != "NotFound: no such thing\n" || rec.Header().Get("X-Amzn-RequestId") != "req-1" {
		t.Fatalf("answer %d %q %v", rec.Code, rec.Body, rec.Header())
	}
}

// A panic is a GridBridge bug: it is answered with the API's internal error
// and logged with its value and stack, never lost.
func TestFrameLogsAPanicAndAnswersInternal(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	h := testAPI(slog.New(slog.NewTextHandler(&logged, nil))).Handler(func(http.ResponseWriter, frame.Request) error {
		var m map[string]int
		m["boom"] = 1 // a nil map: a bug
		return nil
	})
	rec := serve(h, "")
	if rec.Code != http.StatusInternalServerError || !strings.HasPrefix(rec.Body.String(), "Internal: ") || !strings.Contains(rec.Body.String(), "nil map") {
		t.Fatalf("answer %d %q", rec.Code, rec.Body)
	}
	for _, want := range []string{"api=Test", "requestId=req-1", "assignment to entry in nil map", "frame_test.go"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("log %q does not contain %q", logged.String(), want)
		}
	}
}

// http.ErrAbortHandler is a handler aborting its own response on purpose:
// it goes on to net/http, which closes the connection.
func TestFrameLetsAnAbortThrough(t *testing.T) {
	t.Parallel()
	h := testAPI(nil).Handler(func(http.ResponseWriter, frame.Request) error { panic(http.ErrAbortHandler) })
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Fatalf("recovered %v, want http.ErrAbortHandler", v)
		}
	}()
	serve(h, "")
}

// Without NewID, each request gets an id of its own in a version-4 UUID's
// form, as AWS's request ids are, and two APIs do not share a sequence.
func TestFrameRequestIDsAreDistinctUUIDs(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 2 {
		api := testAPI(nil)
		api.NewID = nil
		h := api.Handler(func(w http.ResponseWriter, req frame.Request) error {
			u, err := uuid.Parse(req.ID)
			if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != req.ID {
				t.Errorf("request id %q: %v, version %d, variant %v", req.ID, err, u.Version(), u.Variant())
			}
			if seen[req.ID] {
				t.Errorf("request id %q given twice", req.ID)
			}
			seen[req.ID] = true
			return nil
		})
		for range 1000 {
			serve(h, "")
		}
	}
	if len(seen) != 2000 {
		t.Fatalf("%d distinct ids for 2000 requests", len(seen))
	}
}

package eventsv2

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
	"github.com/gridbridge/gridbridge/compat/aws/frame"
	"github.com/gridbridge/gridbridge/compat/eventbridge/v2model"
)

// maxRequestBody bounds what one API request may send. PutEvents, the
// largest, is the classic API's request, and bounded alike: up to 1 MiB of
// entries as AWS counts them, JSON-escaped, and the framing.
const maxRequestBody = 4 << 20

// operation is one API operation: how to decode its input and run it.
type operation struct {
	name          string
	input, output reflect.Type
	run           func(s *Service, sc scope, body []byte) (any, error)
}

// op builds an operation whose input decodes into In.
func op[In, Out any](name string, run func(s *Service, sc scope, in *In) (Out, error)) operation {
	return operation{
		name:   name,
		input:  reflect.TypeFor[In](),
		output: reflect.TypeFor[Out](),
		run: func(s *Service, sc scope, body []byte) (any, error) {
			var in In
			if err := awsjson.Decode(body, &in); err != nil {
				return nil, err
			}
			return run(s, sc, &in)
		},
	}
}

// operations lists the API (EB-D1), as service-2.json declares it.
func operations() []operation {
	return []operation{
		op("CreateEventBus", (*Service).createEventBus),
		op("DescribeEventBus", (*Service).describeEventBus),
		op("ListEventBuses", (*Service).listEventBuses),
		op("DeleteEventBus", (*Service).deleteEventBus),
		op("PutEvents", (*Service).putEvents),
		op("CreateSubscriber", (*Service).createSubscriber),
		op("DescribeSubscriber", (*Service).describeSubscriber),
		op("ListSubscribers", (*Service).listSubscribers),
		op("UpdateSubscriber", (*Service).updateSubscriber),
		op("DeleteSubscriber", (*Service).deleteSubscriber),
	}
}

func findOperation(name string) (operation, bool) {
	for _, o := range operations() {
		if o.name == name {
			return o, true
		}
	}
	return operation{}, false
}

// serve answers one AWS JSON 1.1 request, inside the AWS request frame.
// Whatever the request holds, the answer is a result or a 4xx error in
// EventBridge's shape; a 5xx means a GridBridge bug.
func (s *Service) serve(w http.ResponseWriter, req frame.Request) error {
	name := strings.TrimPrefix(req.HTTP.Header.Get("X-Amz-Target"), v2model.TargetPrefix+".")
	o, ok := findOperation(name)
	if !ok {
		return awsjson.NewError(awsjson.CodeUnknownOperation,
			fmt.Sprintf("Operation %s is not part of the EventBridge v2 API (%s.<Operation>).", name, v2model.TargetPrefix))
	}
	caller := awsjson.CallerOf(req.HTTP)
	out, err := o.run(s, scope{account: caller.Account, region: caller.Region}, req.Body)
	if err != nil {
		return err
	}
	awsjson.WriteResult(w, req.ID, out)
	return nil
}

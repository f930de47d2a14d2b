package topology

import "net/url"

// pipe creates one pipe with CreatePipe, signed for the pipes service.
func (a *applier) pipe(eb *EventBridge, p Pipe) error {
	return a.restCallTo(eb, "pipes", p.Source, "pipe "+quote(p.Name), "CreatePipe", "/v1/pipes/"+url.PathEscape(p.Name), p.Members)
}

package topology

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// restCredential signs as the file's account and region for a REST-JSON
// service (scheduler, pipes), as awsCredential does for EventBridge.
func restCredential(eb *EventBridge, service string) string {
	return "AWS4-HMAC-SHA256 Credential=" + eb.Account + "/20260101/" + eb.Region + "/" + service + "/aws4_request, " +
		"SignedHeaders=content-type;host, Signature=" + strings.Repeat("0", 64)
}

// restCall sends one Scheduler REST-JSON request.
func (a *applier) restCall(eb *EventBridge, src Source, what, operation, path string, input any) error {
	return a.restCallTo(eb, "scheduler", src, what, operation, path, input)
}

// restCallTo sends one REST-JSON request signed for service.
func (a *applier) restCallTo(eb *EventBridge, service string, src Source, what, operation, path string, input any) error {
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {restCredential(eb, service)}}
	ans, err := a.send(http.MethodPost, path, header, mustJSON(input))
	if err != nil {
		return err
	}
	if !ans.ok() {
		return a.refused(src, what, operation, ans)
	}
	return nil
}

func (a *applier) scheduleGroup(eb *EventBridge, g ScheduleGroup) error {
	what := "schedule group " + quote(g.Name)
	if g.Name != defaultScheduleGroup {
		in := map[string]any{}
		if g.Tags != nil {
			var tags map[string]string
			_ = json.Unmarshal(g.Tags, &tags)
			keys := make([]string, 0, len(tags))
			for k := range tags {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			list := make([]map[string]string, 0, len(keys))
			for _, k := range keys {
				list = append(list, map[string]string{"Key": k, "Value": tags[k]})
			}
			in["Tags"] = list
		}
		if err := a.restCall(eb, g.Source, what, "CreateScheduleGroup", "/schedule-groups/"+url.PathEscape(g.Name), in); err != nil {
			return err
		}
	}
	for _, s := range g.Schedules {
		in := maps.Clone(s.Members)
		in["GroupName"] = mustJSON(g.Name)
		if err := a.restCall(eb, s.Source, "schedule "+quote(s.Name)+" in "+what, "CreateSchedule", "/schedules/"+url.PathEscape(s.Name), in); err != nil {
			return err
		}
	}
	return nil
}

package resourcemanager

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

type group struct {
	Subscription string
	Name         string
	Location     string
	Tags         map[string]string
	ManagedBy    string
}

// groupRef is the resource group a request names, and the group stored
// under that name (nil when there is none).
type groupRef struct {
	sub, name, key string
	stored         *group
}

func (s *Service) lookupGroup(r *arm.Request) groupRef {
	ref := groupRef{sub: r.Var("subscriptionId"), name: r.Var("resourceGroup")}
	ref.key = strings.ToLower(ref.sub) + "/" + strings.ToLower(ref.name)
	s.mu.Lock()
	ref.stored = s.groups[ref.key]
	s.mu.Unlock()
	return ref
}

func (s *Service) checkGroup(r *arm.Request) (arm.Response, *arm.Error) {
	if s.lookupGroup(r).stored == nil {
		return arm.Response{Status: http.StatusNotFound}, nil
	}
	return arm.NoContent(), nil
}

func (s *Service) getGroup(r *arm.Request) (arm.Response, *arm.Error) {
	ref := s.lookupGroup(r)
	if ref.stored == nil {
		return arm.Response{}, groupNotFound(ref.name)
	}
	return arm.OK(groupJSON(ref.stored)), nil
}

func (s *Service) deleteGroup(r *arm.Request) (arm.Response, *arm.Error) {
	ref := s.lookupGroup(r)
	s.mu.Lock()
	delete(s.groups, ref.key)
	s.mu.Unlock()
	if ref.stored == nil {
		// ARM answers a delete of a group that is not there with 404.
		return arm.Response{}, groupNotFound(ref.name)
	}
	return arm.Response{Status: http.StatusOK}, nil
}

// groupBody is what a PUT or PATCH of a resource group may set.
type groupBody struct {
	Location  *string           `json:"location"`
	Tags      map[string]string `json:"tags"`
	ManagedBy *string           `json:"managedBy"`
}

// ResourceGroup names: 1–90 characters of letters, digits, '_', '-', '.',
// '(' and ')', not ending in '.' (Azure also allows other Unicode letters).
var groupName = regexp.MustCompile(`^[\p{L}\p{N}_\-.()]{1,90}$`)

// readGroup checks the name the request gives and decodes its body.
func readGroup(r *arm.Request, ref groupRef) (groupBody, *arm.Error) {
	var body groupBody
	if !groupName.MatchString(ref.name) || strings.HasSuffix(ref.name, ".") {
		return body, &arm.Error{Status: http.StatusBadRequest, Code: "InvalidResourceGroup",
			Message: fmt.Sprintf("The provided resource group name '%s' has these invalid characters: it must be 1-90 letters, digits, underscores, hyphens, periods (not at the end) or parentheses.", ref.name)}
	}
	raw, aerr := r.ReadBody()
	if aerr != nil {
		return body, aerr
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return body, arm.BadContent(err)
	}
	return body, nil
}

func (s *Service) putGroup(r *arm.Request) (arm.Response, *arm.Error) {
	ref := s.lookupGroup(r)
	body, aerr := readGroup(r, ref)
	if aerr != nil {
		return arm.Response{}, aerr
	}
	prev := ref.stored
	if body.Location == nil || *body.Location == "" {
		return arm.Response{}, &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeLocationRequired,
			Message: "The location property is required for this definition."}
	}
	if prev != nil && !strings.EqualFold(strings.ReplaceAll(prev.Location, " ", ""), strings.ReplaceAll(*body.Location, " ", "")) {
		return arm.Response{}, &arm.Error{Status: http.StatusConflict, Code: "InvalidResourceGroupLocation",
			Message: fmt.Sprintf("Invalid resource group location '%s'. The Resource group already exists in location '%s'.", *body.Location, prev.Location)}
	}
	g := &group{Subscription: ref.sub, Name: ref.name, Location: strings.ToLower(strings.ReplaceAll(*body.Location, " ", "")), Tags: body.Tags}
	if body.ManagedBy != nil {
		g.ManagedBy = *body.ManagedBy
	}
	if prev != nil {
		g.Name = prev.Name // ARM keeps the casing of the first create
	}
	s.store(ref.key, g)
	if prev != nil {
		return arm.OK(groupJSON(g)), nil
	}
	return arm.Created(groupJSON(g)), nil
}

func (s *Service) patchGroup(r *arm.Request) (arm.Response, *arm.Error) {
	ref := s.lookupGroup(r)
	body, aerr := readGroup(r, ref)
	if aerr != nil {
		return arm.Response{}, aerr
	}
	if ref.stored == nil {
		return arm.Response{}, groupNotFound(ref.name)
	}
	g := *ref.stored
	if body.Tags != nil {
		g.Tags = body.Tags
	}
	if body.ManagedBy != nil {
		g.ManagedBy = *body.ManagedBy
	}
	s.store(ref.key, &g)
	return arm.OK(groupJSON(&g)), nil
}

func (s *Service) store(key string, g *group) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups[key] = g
}

func (s *Service) listGroups(r *arm.Request) (arm.Response, *arm.Error) {
	sub := r.Var("subscriptionId")
	s.mu.Lock()
	var gs []*group
	for _, g := range s.groups {
		if strings.EqualFold(g.Subscription, sub) {
			gs = append(gs, g)
		}
	}
	s.mu.Unlock()
	sort.Slice(gs, func(i, j int) bool { return strings.ToLower(gs[i].Name) < strings.ToLower(gs[j].Name) })
	out := make([]any, 0, len(gs))
	for _, g := range gs {
		out = append(out, groupJSON(g))
	}
	return arm.OK(map[string]any{"value": out}), nil
}

func groupJSON(g *group) map[string]any {
	out := map[string]any{
		"id":         "/subscriptions/" + g.Subscription + "/resourceGroups/" + g.Name,
		"name":       g.Name,
		"type":       "Microsoft.Resources/resourceGroups",
		"location":   g.Location,
		"properties": map[string]string{"provisioningState": "Succeeded"},
	}
	if g.Tags != nil {
		out["tags"] = g.Tags
	}
	if g.ManagedBy != "" {
		out["managedBy"] = g.ManagedBy
	}
	return out
}

func groupNotFound(name string) *arm.Error {
	return &arm.Error{Status: http.StatusNotFound, Code: "ResourceGroupNotFound",
		Message: fmt.Sprintf("Resource group '%s' could not be found.", name)}
}

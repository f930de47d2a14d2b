package pipes

import (
	"regexp"

	"github.com/gridbridge/gridbridge/compat/aws/awsjson"
)

var pipeArnPattern = regexp.MustCompile(`^arn:aws([a-z]|\-)*:([a-zA-Z0-9\-]+):([a-z]|\d|\-)*:([0-9]{12})?:(.+)$`)

// taggedLocked finds the pipe whose ARN the request's path names.
func (s *Service) taggedLocked(c *call) (*pipe, *awsjson.Error) {
	a := c.vars["resourceArn"]
	var v violations
	if len(a) < 1 || len(a) > maxArnLength {
		v.add(&a, "resourceArn", lengthBetween(1, maxArnLength))
	} else if !pipeArnPattern.MatchString(a) {
		v.add(&a, "resourceArn", awsjson.Pattern(`arn:aws([a-z]|\-)*:([a-zA-Z0-9\-]+):([a-z]|\d|\-)*:([0-9]{12})?:(.+)`))
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	key, name, ok := parsePipeArn(a)
	p := s.tenants[key][name]
	if !ok || p == nil || p.arn != a {
		return nil, &awsjson.Error{Code: codeNotFound, Message: "Resource " + a + " does not exist.", Status: notFound("").Status}
	}
	return p, nil
}

func (s *Service) listTags(c *call) (any, *awsjson.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	return map[string]map[string]string{"tags": p.tags}, nil
}

func (s *Service) tagResource(c *call) (any, *awsjson.Error) {
	var in struct {
		Tags map[string]string `json:"tags"`
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var v violations
	if in.Tags == nil {
		v.required("tags")
	} else {
		checkTags(&v, "tags", in.Tags)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	added := 0
	for k := range in.Tags {
		if _, ok := p.tags[k]; !ok {
			added++
		}
	}
	if len(p.tags)+added > maxTags {
		return nil, validation("A pipe can have at most %d tags; it has %d and the request adds %d.", maxTags, len(p.tags), added)
	}
	for k, val := range in.Tags {
		p.tags[k] = val
	}
	return nil, nil
}

func (s *Service) untagResource(c *call) (any, *awsjson.Error) {
	keys := c.query["tagKeys"]
	var v violations
	if keys == nil {
		v.required("tagKeys")
	} else if len(keys) > maxTags {
		v.add(nil, "tagKeys", lengthBetween(0, maxTags))
	}
	for _, k := range keys {
		if len(k) < 1 || len(k) > maxTagKeyLength {
			v.add(&k, "tagKeys.member", lengthBetween(1, maxTagKeyLength))
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.taggedLocked(c)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		delete(p.tags, k)
	}
	return nil, nil
}

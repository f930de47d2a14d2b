package sqs

// maxTags is how many tags a queue holds.
const maxTags = 50

func (s *Service) tagQueue(c *call, q *Queue, in *tagQueueInput) (any, error) {
	if len(in.Tags) == 0 {
		return nil, errMissingParameter("Tags")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	merged := len(q.tags)
	for k := range in.Tags {
		if _, ok := q.tags[k]; !ok {
			merged++
		}
	}
	if merged > maxTags {
		return nil, errInvalidParameter("Too many tags added for queue %s: a queue holds at most %d.", q.key.name, maxTags)
	}
	for k, v := range in.Tags {
		q.tags[k] = v
	}
	return nil, nil
}

func (s *Service) untagQueue(c *call, q *Queue, in *untagQueueInput) (any, error) {
	if len(in.TagKeys) == 0 {
		return nil, errMissingParameter("TagKeys")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, k := range in.TagKeys {
		delete(q.tags, k)
	}
	return nil, nil
}

func (s *Service) listQueueTags(_ *call, q *Queue, _ *queueURLInput) (any, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	tags := make(map[string]string, len(q.tags))
	for k, v := range q.tags {
		tags[k] = v
	}
	return tagsOutput{Tags: tags}, nil
}

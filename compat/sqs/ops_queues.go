package sqs

import "encoding/base64"

func (s *Service) createQueue(c *call) (any, error) {
	var in createQueueInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.QueueName == nil {
		return nil, errMissingParameter("QueueName")
	}
	k := queueKey{partition: "aws", region: c.caller.Region, account: c.caller.Account, name: *in.QueueName}
	q, err := s.store.createQueue(k, in.Attributes, in.Tags, false)
	if err != nil {
		return nil, err
	}
	return queueURLOutput{QueueUrl: c.queueURL(q)}, nil
}

func (s *Service) getQueueURL(c *call) (any, error) {
	var in getQueueURLInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.QueueName == nil {
		return nil, errMissingParameter("QueueName")
	}
	account := c.caller.Account
	if in.QueueOwnerAWSAccountId != "" {
		account = in.QueueOwnerAWSAccountId
	}
	q := s.store.findByName(c.caller.Region, account, *in.QueueName)
	if q == nil {
		return nil, errQueueDoesNotExist()
	}
	return queueURLOutput{QueueUrl: c.queueURL(q)}, nil
}

func (s *Service) getQueueAttributes(c *call, q *Queue, in *getQueueAttributesInput) (any, error) {
	attrs, err := q.attributes(in.AttributeNames)
	if err != nil {
		return nil, err
	}
	return attributesOutput{Attributes: attrs}, nil
}

func (s *Service) setQueueAttributes(c *call, q *Queue, in *setQueueAttributesInput) (any, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if err := q.cfg.apply(in.Attributes, false); err != nil {
		return nil, err
	}
	q.modified = s.store.clock.Now()
	q.notifyLocked() // a shorter delay or wait may matter to a waiting receive
	return nil, nil
}

// listQueues pages by name: NextToken is the last name of the page before.
func (s *Service) listQueues(c *call) (any, error) {
	var in listQueuesInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	queues := s.store.list(c.caller.Region, c.caller.Account, in.QueueNamePrefix)
	urls, next, err := page(queues, in.NextToken, in.MaxResults, c)
	if err != nil {
		return nil, err
	}
	return listQueuesOutput{QueueUrls: urls, NextToken: next}, nil
}

// page returns the URLs of one page of queues (sorted by name) after token.
func page(queues []*Queue, token string, maxResults *int, c *call) ([]string, string, error) {
	limit := 1000
	if maxResults != nil {
		if *maxResults < 1 || *maxResults > 1000 {
			return nil, "", errInvalidParameter("Value %d for parameter MaxResults is invalid. Reason: MaxResults must be an integer between 1 and 1000.", *maxResults)
		}
		limit = *maxResults
	}
	after := ""
	if token != "" {
		b, err := base64.RawURLEncoding.DecodeString(token)
		if err != nil {
			return nil, "", errInvalidParameter("Invalid NextToken value.")
		}
		after = string(b)
	}
	var urls []string
	next, last := "", ""
	for _, q := range queues {
		if after != "" && q.key.name <= after {
			continue
		}
		if len(urls) == limit {
			if maxResults != nil {
				next = base64.RawURLEncoding.EncodeToString([]byte(last))
			}
			break
		}
		urls = append(urls, c.queueURL(q))
		last = q.key.name
	}
	return urls, next, nil
}

func (s *Service) deleteQueue(_ *call, q *Queue, _ *queueURLInput) (any, error) {
	s.store.deleteQueue(q)
	return nil, nil
}

func (s *Service) purgeQueue(_ *call, q *Queue, _ *queueURLInput) (any, error) {
	q.purge()
	return nil, nil
}

// listDeadLetterSourceQueues lists the queues whose RedrivePolicy names q.
func (s *Service) listDeadLetterSourceQueues(c *call, dlq *Queue, in *listDeadLetterSourcesInput) (any, error) {
	var sources []*Queue
	for _, q := range s.store.list(dlq.key.region, dlq.key.account, "") {
		q.mu.Lock()
		r := q.cfg.redrive
		q.mu.Unlock()
		if r != nil && r.DeadLetterTargetArn == dlq.arn {
			sources = append(sources, q)
		}
	}
	urls, next, err := page(sources, in.NextToken, in.MaxResults, c)
	if err != nil {
		return nil, err
	}
	if urls == nil {
		urls = []string{}
	}
	return deadLetterSourcesOutput{QueueUrls: urls, NextToken: next}, nil
}

// onQueue adapts an operation on one queue to the operations table: it
// decodes the operation's input, resolves the queue its QueueUrl names and
// hands both to op.
func onQueue[I any, P interface {
	*I
	queueURL() string
}](op func(*Service, *call, *Queue, P) (any, error)) func(*Service, *call) (any, error) {
	return func(s *Service, c *call) (any, error) {
		in := P(new(I))
		if err := c.decode(in); err != nil {
			return nil, err
		}
		q, err := s.resolve(c, in.queueURL())
		if err != nil {
			return nil, err
		}
		return op(s, c, q, in)
	}
}

package pattern_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gridbridge/gridbridge/compat/eventbridge/pattern"
)

func ExampleParse() {
	p, err := pattern.Parse(`{"source":["aws.ec2"],"detail":{"state":[{"anything-but":"pending"}]}}`)
	if err != nil {
		panic(err)
	}
	ok, err := p.Match([]byte(`{"source":"aws.ec2","detail":{"state":"running"}}`))
	fmt.Println(ok, err)
	// Output: true <nil>
}

func ExampleParse_invalid() {
	_, err := pattern.Parse(`{"detail":{"c-count":[{"numeric":[">",0,">",0]}]}}`)
	var invalid *pattern.InvalidPatternError
	if errors.As(err, &invalid) {
		// The API layer returns this as InvalidEventPatternException.
		fmt.Println(invalid.Message)
	}
	// Output: Event pattern is not valid. Reason: Bad numeric range operator: >
}

func ExampleMatcher() {
	m := pattern.NewMatcher()
	for id, text := range map[string]string{
		"arn:aws:events:us-east-1:123456789012:rule/ec2":     `{"source":["aws.ec2"]}`,
		"arn:aws:events:us-east-1:123456789012:rule/running": `{"detail":{"state":["running"]}}`,
		"arn:aws:events:us-east-1:123456789012:rule/s3":      `{"source":["aws.s3"]}`,
	} {
		p, err := pattern.Parse(text)
		if err != nil {
			panic(err)
		}
		m.Add(id, p)
	}
	ids, err := m.Match([]byte(`{"source":"aws.ec2","detail":{"state":"running"}}`))
	slices.Sort(ids)
	fmt.Println(ids, err)
	// Output: [arn:aws:events:us-east-1:123456789012:rule/ec2 arn:aws:events:us-east-1:123456789012:rule/running] <nil>
}

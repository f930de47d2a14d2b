package pattern

import "testing"

func TestPrefixAndSuffix(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"prefix", `{"time":[{"prefix":"2022-07-13"}]}`, `{"time":"2022-07-13T13:48:01Z"}`, true},
		{"prefix no", `{"time":[{"prefix":"2022-07-99"}]}`, `{"time":"2022-07-13T13:48:01Z"}`, false},
		{"prefix is case sensitive", `{"s":[{"prefix":"Ab"}]}`, `{"s":"abc"}`, false},
		{"empty prefix matches any string", `{"s":[{"prefix":""}]}`, `{"s":"anything"}`, true},
		{"empty prefix not a number", `{"s":[{"prefix":""}]}`, `{"s":5}`, false},
		{"prefix not a number", `{"s":[{"prefix":"1"}]}`, `{"s":12}`, false},
		{"prefix longer than value", `{"s":[{"prefix":"abcd"}]}`, `{"s":"abc"}`, false},
		{"prefix ignore case", `{"s":[{"prefix":{"equals-ignore-case":"EventB"}}]}`, `{"s":"EvEnTbridge"}`, true},
		{"prefix ignore case no", `{"s":[{"prefix":{"equals-ignore-case":"EventB"}}]}`, `{"s":"EvEnTx"}`, false},
		{"suffix", `{"f":[{"suffix":".png"}]}`, `{"f":"image.png"}`, true},
		{"suffix is case sensitive", `{"f":[{"suffix":".PNG"}]}`, `{"f":"image.png"}`, false},
		{"empty suffix", `{"f":[{"suffix":""}]}`, `{"f":""}`, true},
		{"suffix ignore case", `{"f":[{"suffix":{"equals-ignore-case":".png"}}]}`, `{"f":"image.PNG"}`, true},
		{"suffix ignore case no", `{"f":[{"suffix":{"equals-ignore-case":".png"}}]}`, `{"f":"image.jpg"}`, false},
		{"prefix unicode", `{"s":[{"prefix":"é"}]}`, `{"s":"été"}`, true},
		{"suffix unicode ignore case", `{"s":[{"suffix":{"equals-ignore-case":"É"}}]}`, `{"s":"été"}`, true},
		{"prefix on array", `{"r":[{"prefix":"arn:aws:ec2"}]}`, `{"r":["arn:aws:s3:::b","arn:aws:ec2:x"]}`, true},
	})
}

func TestEqualsIgnoreCase(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"ascii", `{"d":[{"equals-ignore-case":"ec2 instance state-change notification"}]}`, `{"d":"EC2 Instance State-change Notification"}`, true},
		{"other", `{"d":[{"equals-ignore-case":"I do not match"}]}`, `{"d":"EC2"}`, false},
		{"empty matches only empty", `{"d":[{"equals-ignore-case":""}]}`, `{"d":""}`, true},
		{"empty not other", `{"d":[{"equals-ignore-case":""}]}`, `{"d":"x"}`, false},
		{"array element", `{"d":[{"equals-ignore-case":"b"}]}`, `{"d":["a","B"]}`, true},
		{"not a number", `{"d":[{"equals-ignore-case":"5"}]}`, `{"d":5}`, false},
		{"accented", `{"d":[{"equals-ignore-case":"é"}]}`, `{"d":"É"}`, true},
		// Each pattern character matches its lower- or upper-case form, as AWS compiles it.
		{"sharp s upper form", `{"d":[{"equals-ignore-case":"straße"}]}`, `{"d":"STRASSE"}`, true},
		{"sharp s lower form", `{"d":[{"equals-ignore-case":"straße"}]}`, `{"d":"straße"}`, true},
		{"sharp s is not ss", `{"d":[{"equals-ignore-case":"straße"}]}`, `{"d":"strasse"}`, false},
		{"long s", `{"d":[{"equals-ignore-case":"ſ"}]}`, `{"d":"S"}`, true},
		{"kelvin sign is not k", `{"d":[{"equals-ignore-case":"k"}]}`, `{"d":"\u212a"}`, false},
		{"dotted capital i", `{"d":[{"equals-ignore-case":"i"}]}`, `{"d":"İ"}`, false},
		{"emoji", `{"d":[{"equals-ignore-case":"x🚀"}]}`, `{"d":"X🚀"}`, true},
	})
}

func TestWildcard(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []matchCase{
		{"star in the middle", `{"f":[{"wildcard":"/Users/*/doc.txt"}]}`, `{"f":"/Users/me/dir/dir/doc.txt"}`, true},
		{"star no", `{"f":[{"wildcard":"/Users/*/doc.txt"}]}`, `{"f":"/Users/me/notdoc.txt"}`, false},
		{"repeating after star", `{"f":[{"wildcard":"/Users/*/dir/dir/doc.txt"}]}`, `{"f":"/Users/u/dir/dir/dir/doc.txt"}`, true},
		{"star matches nothing", `{"f":[{"wildcard":"ab*c"}]}`, `{"f":"abc"}`, true},
		{"leading and trailing", `{"f":[{"wildcard":"*b*"}]}`, `{"f":"abc"}`, true},
		{"only star", `{"f":[{"wildcard":"*"}]}`, `{"f":""}`, true},
		{"only star not a number", `{"f":[{"wildcard":"*"}]}`, `{"f":5}`, false},
		{"empty matches only empty", `{"f":[{"wildcard":""}]}`, `{"f":"x"}`, false},
		{"no star is exact", `{"f":[{"wildcard":"abc"}]}`, `{"f":"abcd"}`, false},
		{"escaped star is literal", `{"f":[{"wildcard":"a\\*c"}]}`, `{"f":"a*c"}`, true},
		{"escaped star is not a wildcard", `{"f":[{"wildcard":"a\\*c"}]}`, `{"f":"abc"}`, false},
		{"escaped backslash", `{"f":[{"wildcard":"a\\\\*"}]}`, `{"f":"a\\bc"}`, true},
		{"arn", `{"EventBusArn":[{"wildcard":"arn:aws:events:us-east-1:*:event-bus/*"}]}`, `{"EventBusArn":"arn:aws:events:us-east-1:123456789012:event-bus/myEventBus"}`, true},
		{"overlapping pieces", `{"f":[{"wildcard":"*aba*abab"}]}`, `{"f":"xabababab"}`, true},
	})
}

package topology

import "strings"

// pipes reads eventbridge.pipes: each a CreatePipe request, Name included.
// RoleArn may be left out: GridBridge never assumes it, so the file gets a
// role of its account.
func (d *decoder) pipes(sec *object, account string) []Pipe {
	names := newUniqueNames("pipe name", false)
	var out []Pipe
	for _, it := range sec.list("pipes") {
		members, o, src, name, ok := d.awsNamed(it, pipeShape())
		if !ok {
			continue
		}
		names.add(o, "name", name)
		delete(members, "Name")
		if _, ok := members["RoleArn"]; !ok {
			members["RoleArn"] = mustJSON("arn:aws:iam::" + account + ":role/gridbridge-pipe")
		}
		out = append(out, Pipe{Source: src, Name: name, Members: members})
	}
	return out
}

// checkPipeSource is a pipe's source: an ARN, or a self-managed Kafka
// cluster's smk:// address.
func checkPipeSource(s string) string {
	if strings.HasPrefix(s, "smk://") || checkARN(s) == "" {
		return ""
	}
	return "must be an ARN such as arn:aws:sqs:us-east-1:000000000000:orders (or a smk:// Kafka address)"
}

// pipeShape is a CreatePipe request. The parameters of sources and targets
// GridBridge does not run are sent as written.
func pipeShape() []member {
	httpParameters := member{name: "HttpParameters", kind: structMember, shape: []member{
		{name: "PathParameterValues", kind: textListMember},
		{name: "HeaderParameters", kind: textMapMember},
		{name: "QueryStringParameters", kind: textMapMember},
	}}
	return []member{
		{name: "Name", kind: textMember, required: true, check: awsName(64)},
		{name: "Description", kind: textMember},
		{name: "DesiredState", kind: textMember},
		{name: "Source", kind: textMember, required: true, check: checkPipeSource},
		{name: "SourceParameters", kind: structMember, shape: []member{
			{name: "FilterCriteria", kind: structMember, shape: []member{
				{name: "Filters", kind: structListMember, shape: []member{
					{name: "Pattern", kind: jsonObjectMember},
				}},
			}},
			{name: "SqsQueueParameters", kind: structMember, shape: []member{
				{name: "BatchSize", kind: intMember},
				{name: "MaximumBatchingWindowInSeconds", kind: intMember},
			}},
			{name: "KinesisStreamParameters", kind: rawMember},
			{name: "DynamoDBStreamParameters", kind: rawMember},
			{name: "ActiveMQBrokerParameters", kind: rawMember},
			{name: "RabbitMQBrokerParameters", kind: rawMember},
			{name: "ManagedStreamingKafkaParameters", kind: rawMember},
			{name: "SelfManagedKafkaParameters", kind: rawMember},
		}},
		{name: "Enrichment", kind: textMember, check: checkARN},
		{name: "EnrichmentParameters", kind: structMember, shape: []member{
			{name: "InputTemplate", kind: inputMember},
			httpParameters,
		}},
		{name: "Target", kind: textMember, required: true, check: checkARN},
		{name: "TargetParameters", kind: structMember, shape: []member{
			{name: "InputTemplate", kind: inputMember},
			{name: "SqsQueueParameters", kind: structMember, shape: []member{
				{name: "MessageGroupId", kind: textMember},
				{name: "MessageDeduplicationId", kind: textMember},
			}},
			{name: "EventBridgeEventBusParameters", kind: structMember, shape: []member{
				{name: "DetailType", kind: textMember},
				{name: "Source", kind: textMember},
				{name: "Resources", kind: textListMember},
				{name: "Time", kind: textMember},
				{name: "EndpointId", kind: textMember},
			}},
			httpParameters,
			{name: "LambdaFunctionParameters", kind: rawMember},
			{name: "StepFunctionStateMachineParameters", kind: rawMember},
			{name: "KinesisStreamParameters", kind: rawMember},
			{name: "EcsTaskParameters", kind: rawMember},
			{name: "BatchJobParameters", kind: rawMember},
			{name: "RedshiftDataParameters", kind: rawMember},
			{name: "SageMakerPipelineParameters", kind: rawMember},
			{name: "CloudWatchLogsParameters", kind: rawMember},
			{name: "TimestreamParameters", kind: rawMember},
		}},
		{name: "RoleArn", kind: textMember, check: checkARN},
		{name: "Tags", kind: textMapMember},
		{name: "LogConfiguration", kind: rawMember},
		{name: "KmsKeyIdentifier", kind: textMember},
	}
}

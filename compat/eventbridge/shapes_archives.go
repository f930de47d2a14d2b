package eventbridge

import "github.com/gridbridge/gridbridge/compat/aws/awsjson"

type archiveInput struct {
	ArchiveName      *string `json:"ArchiveName"`
	EventSourceArn   *string `json:"EventSourceArn"`
	Description      *string `json:"Description"`
	EventPattern     *string `json:"EventPattern"`
	RetentionDays    *int32  `json:"RetentionDays"`
	KmsKeyIdentifier *string `json:"KmsKeyIdentifier"`
}

type archiveStateOutput struct {
	ArchiveArn string `json:"ArchiveArn"`
	stateWithReason
	CreationTime *awsjson.Timestamp `json:"CreationTime,omitempty"`
}

type archiveItem struct {
	ArchiveName    string `json:"ArchiveName"`
	EventSourceArn string `json:"EventSourceArn"`
	stateWithReason
	RetentionDays int32              `json:"RetentionDays"`
	SizeBytes     int64              `json:"SizeBytes"`
	EventCount    int64              `json:"EventCount"`
	CreationTime  *awsjson.Timestamp `json:"CreationTime,omitempty"`
}

type describeArchiveOutput struct {
	archiveItem
	ArchiveArn       string  `json:"ArchiveArn"`
	Description      *string `json:"Description,omitempty"`
	EventPattern     *string `json:"EventPattern,omitempty"`
	KmsKeyIdentifier *string `json:"KmsKeyIdentifier,omitempty"`
}

// listBySourceInput is the input of ListArchives and ListReplays.
type listBySourceInput struct {
	pageInput
	NamePrefix     *string `json:"NamePrefix"`
	EventSourceArn *string `json:"EventSourceArn"`
	State          *string `json:"State"`
}

type listArchivesOutput struct {
	Archives  []archiveItem `json:"Archives"`
	NextToken *string       `json:"NextToken,omitempty"`
}

// replayDestination is where a replay sends its events.
type replayDestination struct {
	Arn        *string  `json:"Arn,omitempty"`
	FilterArns []string `json:"FilterArns,omitempty"`
}

type startReplayInput struct {
	ReplayName     *string            `json:"ReplayName"`
	Description    *string            `json:"Description"`
	EventSourceArn *string            `json:"EventSourceArn"`
	EventStartTime *awsjson.Timestamp `json:"EventStartTime"`
	EventEndTime   *awsjson.Timestamp `json:"EventEndTime"`
	Destination    *replayDestination `json:"Destination"`
}

type replayNameInput struct {
	ReplayName *string `json:"ReplayName"`
}

type replayStateOutput struct {
	ReplayArn string `json:"ReplayArn"`
	stateWithReason
	ReplayStartTime *awsjson.Timestamp `json:"ReplayStartTime,omitempty"`
}

type replayItem struct {
	ReplayName     string `json:"ReplayName"`
	EventSourceArn string `json:"EventSourceArn"`
	stateWithReason
	EventStartTime        *awsjson.Timestamp `json:"EventStartTime,omitempty"`
	EventEndTime          *awsjson.Timestamp `json:"EventEndTime,omitempty"`
	EventLastReplayedTime *awsjson.Timestamp `json:"EventLastReplayedTime,omitempty"`
	ReplayStartTime       *awsjson.Timestamp `json:"ReplayStartTime,omitempty"`
	ReplayEndTime         *awsjson.Timestamp `json:"ReplayEndTime,omitempty"`
}

type describeReplayOutput struct {
	replayItem
	ReplayArn   string             `json:"ReplayArn"`
	Description *string            `json:"Description,omitempty"`
	Destination *replayDestination `json:"Destination,omitempty"`
}

type listReplaysOutput struct {
	Replays   []replayItem `json:"Replays"`
	NextToken *string      `json:"NextToken,omitempty"`
}

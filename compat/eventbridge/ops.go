package eventbridge

// operation returns the handler of an AWSEvents.<name> target.
func operation(name string) (func(*Service, *call) (any, error), bool) {
	switch name {
	case "CreateEventBus":
		return (*Service).createEventBus, true
	case "DescribeEventBus":
		return (*Service).describeEventBus, true
	case "ListEventBuses":
		return (*Service).listEventBuses, true
	case "UpdateEventBus":
		return (*Service).updateEventBus, true
	case "DeleteEventBus":
		return (*Service).deleteEventBus, true
	case "PutPermission":
		return (*Service).putPermission, true
	case "RemovePermission":
		return (*Service).removePermission, true
	case "PutRule":
		return (*Service).putRule, true
	case "DescribeRule":
		return (*Service).describeRule, true
	case "ListRules":
		return (*Service).listRules, true
	case "DeleteRule":
		return (*Service).deleteRule, true
	case "EnableRule":
		return (*Service).enableRule, true
	case "DisableRule":
		return (*Service).disableRule, true
	case "PutTargets":
		return (*Service).putTargets, true
	case "RemoveTargets":
		return (*Service).removeTargets, true
	case "ListTargetsByRule":
		return (*Service).listTargetsByRule, true
	case "ListRuleNamesByTarget":
		return (*Service).listRuleNamesByTarget, true
	case "PutEvents":
		return (*Service).putEvents, true
	case "TestEventPattern":
		return (*Service).testEventPattern, true
	case "TagResource":
		return (*Service).tagResource, true
	case "UntagResource":
		return (*Service).untagResource, true
	case "ListTagsForResource":
		return (*Service).listTagsForResource, true
	case "CreateArchive":
		return (*Service).createArchive, true
	case "DescribeArchive":
		return (*Service).describeArchive, true
	case "ListArchives":
		return (*Service).listArchives, true
	case "UpdateArchive":
		return (*Service).updateArchive, true
	case "DeleteArchive":
		return (*Service).deleteArchive, true
	case "StartReplay":
		return (*Service).startReplay, true
	case "DescribeReplay":
		return (*Service).describeReplay, true
	case "ListReplays":
		return (*Service).listReplays, true
	case "CancelReplay":
		return (*Service).cancelReplay, true
	case "CreateConnection":
		return (*Service).createConnection, true
	case "DescribeConnection":
		return (*Service).describeConnection, true
	case "ListConnections":
		return (*Service).listConnections, true
	case "UpdateConnection":
		return (*Service).updateConnection, true
	case "DeauthorizeConnection":
		return (*Service).deauthorizeConnection, true
	case "DeleteConnection":
		return (*Service).deleteConnection, true
	case "CreateApiDestination":
		return (*Service).createApiDestination, true
	case "DescribeApiDestination":
		return (*Service).describeApiDestination, true
	case "ListApiDestinations":
		return (*Service).listApiDestinations, true
	case "UpdateApiDestination":
		return (*Service).updateApiDestination, true
	case "DeleteApiDestination":
		return (*Service).deleteApiDestination, true
	}
	return nil, false
}

package testkit

import (
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
)

// Scheduler returns an EventBridge Scheduler client for the emulator.
func (e *Emulator) Scheduler() *scheduler.Client {
	return scheduler.NewFromConfig(e.AWSConfig())
}

// ScheduleFilter selects the journal entries of one schedule (group ""
// means any group), for Deliveries, WaitForDeliveries and faults.
func ScheduleFilter(group, schedule string) Filter {
	labels := map[string]string{"cloud": "scheduler", "schedule": schedule}
	if group != "" {
		labels["group"] = group
	}
	return Filter{Labels: labels}
}

//go:build !race

package awsmodel_test

const raceEnabled = false

// Package facetest is the test harness the cloud faces share: an engine on
// a virtual clock with its journal, a gorilla/mux router served by httptest
// (TLS, plain HTTP or both), client options that point the official SDKs
// (armeventgrid, azeventgrid, aws-sdk-go-v2 EventBridge) at those servers,
// waits on the journal instead of sleeps, a programmable HTTP target, and a
// loader for golden files under testdata/.
//
// A face's own harness_test.go keeps only what is its cloud's: which
// service it mounts on Env.Router and the helpers its tests call by name.
//
//	env := facetest.New(t, facetest.Options{Start: start, Settle: 5 * time.Second})
//	srv := env.ServeTLS(t)
//	svc := myface.New(myface.Config{Engine: env.Engine})
//	svc.Register(env.Router)
//	arm := facetest.ARMFactory(t, srv.URL, srv.Client())
//	env.WaitCount(t, engine.Filter{Kind: engine.KindAttempt}, 1)
//
// The package imports no face, so a face's in-package tests can use it too.
package facetest

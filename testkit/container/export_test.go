package container

import "github.com/testcontainers/testcontainers-go"

// EmulatorEnv is the environment Run gives the emulator's container for
// opts (no sidecars), with 4443 published on tlsHostPort of host. Where
// Docker is absent, the container tests start the emulator binary with it.
func EmulatorEnv(host string, tlsHostPort int, opts ...Option) (map[string]string, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	var req testcontainers.GenericContainerRequest
	for _, c := range emulatorCustomizers(o, nil, host, tlsHostPort, o.env) {
		if err := c.Customize(&req); err != nil {
			return nil, err
		}
	}
	return req.Env, nil
}

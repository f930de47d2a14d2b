package container

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	dockercontainer "github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
)

// The emulator writes its HTTPS base URL into what it answers: every Event
// Grid topic's properties.endpoint in ARM, and GET /_emulator/info, from
// which testkit.Connect takes the ARM endpoint. It reads that URL
// (GRIDBRIDGE_ADVERTISE_TLS_URL) once, at start, before Docker has mapped a
// random host port. So Run chooses the host port for 4443 itself: it asks
// the kernel for a free port, binds 4443 to it, and advertises
// https://<docker host>:<port>, which is then exactly the mapped URL. Should
// another process take the port in between, Docker refuses to start the
// container and Run tries another port.

// tlsPortAttempts bounds how often Run picks another host port.
const tlsPortAttempts = 3

// freeHostPort asks the kernel for a TCP port free on the interfaces
// Docker will publish it on: loopback, or every interface.
func freeHostPort(loopback bool) (int, error) {
	addr := ":0"
	if loopback {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return 0, fmt.Errorf("choosing a host port for HTTPS: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// portTaken reports whether Docker refused a container because its fixed
// host port was taken, in the words of Docker Engine and Docker Desktop.
func portTaken(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "port is already allocated") ||
		strings.Contains(msg, "address already in use") ||
		strings.Contains(msg, "ports are not available")
}

// dockerHost is the host name or IP under which the Docker host publishes
// ports, as testcontainers' Container.Host will report it: "localhost" for
// a local engine, the daemon's host for a remote one,
// TESTCONTAINERS_HOST_OVERRIDE when set.
func dockerHost(ctx context.Context) (string, error) {
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return "", fmt.Errorf("reaching Docker: %w", err)
	}
	defer provider.Close()
	host, err := provider.DaemonHost(ctx)
	if err != nil {
		return "", fmt.Errorf("finding the Docker host's address: %w", err)
	}
	return host, nil
}

// advertisedTLSURL is the HTTPS base URL clients on the Docker host use.
func advertisedTLSURL(host string, port int) string {
	return "https://" + net.JoinHostPort(host, strconv.Itoa(port))
}

// tlsHosts are the names the emulator's certificate must carry besides the
// loopback ones it always has: the network alias, the name containers give
// the host (as the image's own GRIDBRIDGE_TLS_HOST, which this replaces),
// and the Docker host.
func tlsHosts(host string) string {
	names := EmulatorAlias + " " + dockerHostAlias
	if host == "localhost" || host == "" {
		return names
	}
	return names + " " + host
}

// dockerHostAlias is the name Docker Desktop (and --add-host
// host.docker.internal:host-gateway) gives the host inside containers.
const dockerHostAlias = "host.docker.internal"

// publishesOnLoopback reports whether ports are published on 127.0.0.1: by
// default where the Docker host is this machine. A remote engine's
// loopback is out of the test's reach, so there, and with
// WithPortsOnAllInterfaces, they are published on every interface.
func publishesOnLoopback(o options, host string) bool {
	if o.allInterfaces {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// portBindings publishes each port on a random host port (or the one given)
// of loopback or every interface.
func portBindings(loopback bool, fixed map[string]int, ports ...string) func(*dockercontainer.HostConfig) {
	var ip netip.Addr // every interface
	if loopback {
		ip = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	return func(hc *dockercontainer.HostConfig) {
		if hc.PortBindings == nil {
			hc.PortBindings = network.PortMap{}
		}
		for _, port := range ports {
			hostPort := ""
			if p, ok := fixed[port]; ok {
				hostPort = strconv.Itoa(p)
			}
			hc.PortBindings[network.MustParsePort(port)] = []network.PortBinding{{HostIP: ip, HostPort: hostPort}}
		}
	}
}

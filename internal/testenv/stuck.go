package testenv

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
)

// StuckInBodyRead opens a connection to the emulator at addr and leaves one
// request in flight that does not end with the server's shutdown: a POST
// with Expect: 100-continue whose body never comes. The "100 Continue"
// proves the handler is reading the body. The connection closes when t
// ends.
func StuckInBodyRead(t testing.TB, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.1\r\n"+
		"X-Amz-Target: AWSEvents.PutEvents\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, "100 Continue") {
		t.Fatalf("want 100 Continue, got %q, %v", status, err)
	}
	return conn
}

// RefusedAtShutdown tells the error of a request the emulator had not read
// yet when it stopped: its connection was refused, closed or reset.
func RefusedAtShutdown(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "EOF") || strings.Contains(msg, "reset") || strings.Contains(msg, "refused")
}

// Command freeport prints N free TCP ports on 127.0.0.1, one per line, so that
// scripts/test.sh can start the test services without fixed ports that a second
// run, or another program on the machine, may already hold.
//
// All N listeners are open at the same time before any is closed, so the ports
// are distinct. A port is free when printed; another process could still take
// it before the service binds it, which is rare enough for a test run.
package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
)

func main() {
	n := 1
	if len(os.Args) > 1 {
		var err error
		if n, err = strconv.Atoi(os.Args[1]); err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "usage: freeport [N>=1], got %q\n", os.Args[1])
			os.Exit(2)
		}
	}
	listeners := make([]net.Listener, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintf(os.Stderr, "freeport: %v\n", err)
			os.Exit(1)
		}
		listeners = append(listeners, l)
	}
	for _, l := range listeners {
		fmt.Println(l.Addr().(*net.TCPAddr).Port)
		l.Close()
	}
}

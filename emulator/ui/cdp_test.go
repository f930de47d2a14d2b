package ui_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A small Chrome DevTools Protocol client over a hand-written WebSocket
// (RFC 6455, client side, text frames only): the few CDP methods the browser
// tests call do not justify a dependency.

// browser is a headless chromium with one page open.
type browser struct {
	t    testing.TB
	page *cdpConn
}

// startBrowser runs chromium headless on a free debugging port and connects
// to its first page. It is killed when the test ends.
func startBrowser(t testing.TB, chromium string) *browser {
	t.Helper()
	cmd := exec.Command(chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--force-color-profile=srgb",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--window-size=1280,900", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// Chromium prints "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID".
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	var wsURL string
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatal("chromium exited without a DevTools address")
		}
		wsURL = u
	case <-time.After(60 * time.Second):
		t.Fatal("chromium printed no DevTools address within 60 s")
	}
	u, err := url.Parse(wsURL)
	if err != nil {
		t.Fatal(err)
	}
	// Open our own page through the browser target, so there is no race
	// with the start-up page appearing in /json/list.
	bc, err := dialCDP(wsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	raw, err := bc.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := json.Unmarshal(raw, &target); err != nil {
		t.Fatal(err)
	}
	pageWS := "ws://" + u.Host + "/devtools/page/" + target.TargetID
	c, err := dialCDP(pageWS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	b := &browser{t: t, page: c}
	// Console messages, uncaught exceptions and the browser's own log
	// (failed requests, refused content) are kept for consoleErrors.
	b.call("Runtime.enable", nil, nil)
	b.call("Log.enable", nil, nil)
	return b
}

// consoleErrors returns what the page reported as an error since the last
// call: an uncaught exception, console.error or console.assert, or an
// error-level entry of the browser's log (a failed request, a Content
// Security Policy violation).
func (b *browser) consoleErrors() []string {
	b.t.Helper()
	var out []string
	for _, ev := range b.page.takeEvents() {
		switch ev.Method {
		case "Runtime.exceptionThrown":
			var p struct {
				Details struct {
					Text      string `json:"text"`
					URL       string `json:"url"`
					Line      int    `json:"lineNumber"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			_ = json.Unmarshal(ev.Params, &p)
			out = append(out, fmt.Sprintf("exception %s %s (%s:%d)", p.Details.Text, p.Details.Exception.Description, p.Details.URL, p.Details.Line))
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
				Args []struct {
					Value       any    `json:"value"`
					Description string `json:"description"`
				} `json:"args"`
			}
			_ = json.Unmarshal(ev.Params, &p)
			if p.Type != "error" && p.Type != "assert" {
				continue
			}
			var args []string
			for _, a := range p.Args {
				args = append(args, fmt.Sprint(firstNonEmpty(a.Description, fmt.Sprint(a.Value))))
			}
			out = append(out, "console."+p.Type+": "+strings.Join(args, " "))
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Level  string `json:"level"`
					Source string `json:"source"`
					Text   string `json:"text"`
					URL    string `json:"url"`
				} `json:"entry"`
			}
			_ = json.Unmarshal(ev.Params, &p)
			if p.Entry.Level == "error" {
				out = append(out, fmt.Sprintf("log (%s): %s %s", p.Entry.Source, p.Entry.Text, p.Entry.URL))
			}
		}
	}
	return out
}

// noConsoleErrors fails the test with every error the page reported since
// the last check.
func (b *browser) noConsoleErrors(where string) {
	b.t.Helper()
	for _, e := range b.consoleErrors() {
		b.t.Errorf("%s: the page reported an error: %s", where, e)
	}
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" && v != "<nil>" {
			return v
		}
	}
	return ""
}

// call sends one CDP command and decodes its result into out (may be nil).
func (b *browser) call(method string, params any, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	raw, err := b.page.call(ctx, method, params)
	if err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.t.Fatalf("%s result %s: %v", method, raw, err)
		}
	}
}

// eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its value into out (may be nil).
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call("Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &res)
	if res.Exception != nil {
		b.t.Fatalf("evaluating %s: %s %s", expr, res.Exception.Text, res.Exception.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			b.t.Fatalf("evaluating %s: value %s: %v", expr, res.Result.Value, err)
		}
	}
}

// waitFor waits until the JavaScript condition is true in the page, checking
// on every animation frame, up to 30 s; it fails the test with the page's
// text otherwise.
func (b *browser) waitFor(cond string) {
	b.t.Helper()
	var ok bool
	b.eval(`new Promise((resolve) => {
		const deadline = performance.now() + 30000;
		const check = () => {
			let v = false;
			try { v = !!(`+cond+`); } catch (e) { v = false; }
			if (v) return resolve(true);
			if (performance.now() > deadline) return resolve(false);
			requestAnimationFrame(check);
		};
		check();
	})`, &ok)
	if !ok {
		var text string
		b.eval(`document.body.innerText`, &text)
		b.t.Fatalf("the page never satisfied %s; it shows:\n%s", cond, text)
	}
}

// cdpConn is one WebSocket connection to a DevTools target.
type cdpConn struct {
	conn    net.Conn
	r       *bufio.Reader
	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpReply
	events  []cdpEvent // what the browser reported, oldest first
	err     error
	done    chan struct{}
}

// cdpEvent is a message the browser sent unasked (Runtime.exceptionThrown,
// Log.entryAdded …).
type cdpEvent struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// watched says which events a page connection keeps; it drops the rest
// (execution contexts, frames).
func watched(method string) bool {
	switch method {
	case "Runtime.exceptionThrown", "Runtime.consoleAPICalled", "Log.entryAdded":
		return true
	}
	return false
}

// takeEvents returns the kept events and forgets them.
func (c *cdpConn) takeEvents() []cdpEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.events
	c.events = nil
	return out
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func dialCDP(wsURL string) (*cdpConn, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	keyBytes := make([]byte, 16)
	_, _ = rand.Read(keyBytes)
	key := base64.StdEncoding.EncodeToString(keyBytes)
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	r := bufio.NewReader(conn)
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %s", res.Status)
	}
	c := &cdpConn{conn: conn, r: r, waiting: map[int]chan cdpReply{}, done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

func (c *cdpConn) close() { c.conn.Close() }

func (c *cdpConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if params == nil {
		params = map[string]any{}
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if err := c.writeFrame(0x1, msg); err != nil {
		return nil, err
	}
	select {
	case rep := <-ch:
		if rep.Error != nil {
			return nil, fmt.Errorf("CDP error %d: %s", rep.Error.Code, rep.Error.Message)
		}
		return rep.Result, nil
	case <-c.done:
		return nil, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *cdpConn) readLoop() {
	var err error
	defer func() {
		c.mu.Lock()
		c.err = fmt.Errorf("devtools connection closed: %w", err)
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		var msg []byte
		msg, err = c.readMessage()
		if err != nil {
			return
		}
		var head struct {
			ID int `json:"id"`
		}
		if json.Unmarshal(msg, &head) != nil {
			continue
		}
		if head.ID == 0 {
			var ev cdpEvent
			if json.Unmarshal(msg, &ev) == nil && watched(ev.Method) {
				c.mu.Lock()
				c.events = append(c.events, ev)
				c.mu.Unlock()
			}
			continue
		}
		var rep cdpReply
		_ = json.Unmarshal(msg, &rep)
		c.mu.Lock()
		ch := c.waiting[head.ID]
		delete(c.waiting, head.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// writeFrame sends one masked frame, as a client must.
func (c *cdpConn) writeFrame(opcode byte, payload []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	head := []byte{0x80 | opcode}
	switch n := len(payload); {
	case n < 126:
		head = append(head, 0x80|byte(n))
	case n <= 0xFFFF:
		head = append(head, 0x80|126, byte(n>>8), byte(n))
	default:
		head = append(head, 0x80|127)
		head = binary.BigEndian.AppendUint64(head, uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	head = append(head, mask...)
	masked := make([]byte, len(payload))
	for i, b := range payload {
		masked[i] = b ^ mask[i%4]
	}
	_, err := c.conn.Write(append(head, masked...))
	return err
}

// readMessage reads frames until a whole text or binary message arrived,
// answering pings on the way.
func (c *cdpConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return nil, err
		}
		fin, opcode := h[0]&0x80 != 0, h[0]&0x0F
		n := uint64(h[1] & 0x7F)
		switch n {
		case 126:
			var ext [2]byte
			if _, err := io.ReadFull(c.r, ext[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(ext[:]))
		case 127:
			var ext [8]byte
			if _, err := io.ReadFull(c.r, ext[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(ext[:])
		}
		var mask [4]byte
		masked := h[1]&0x80 != 0
		if masked {
			if _, err := io.ReadFull(c.r, mask[:]); err != nil {
				return nil, err
			}
		}
		if n > 256<<20 {
			return nil, errors.New("websocket frame over 256 MiB")
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(c.r, payload); err != nil {
			return nil, err
		}
		if masked {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch opcode {
		case 0x8:
			return nil, errors.New("closed by the browser")
		case 0x9:
			if err := c.writeFrame(0xA, payload); err != nil {
				return nil, err
			}
			continue
		case 0xA:
			continue
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

// writeScreenshot saves a PNG of the page's viewport to path.
func (b *browser) writeScreenshot(path string) {
	b.t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	b.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// axNode is the part of Accessibility.getFullAXTree's nodes the tests read.
type axNode struct {
	Ignored bool `json:"ignored"`
	Role    *struct {
		Value string `json:"value"`
	} `json:"role"`
	Name *struct {
		Value string `json:"value"`
	} `json:"name"`
	BackendDOMNodeID int `json:"backendDOMNodeId"`
}

func (n axNode) role() string {
	if n.Role == nil {
		return ""
	}
	return n.Role.Value
}

func (n axNode) name() string {
	if n.Name == nil {
		return ""
	}
	return strings.TrimSpace(n.Name.Value)
}

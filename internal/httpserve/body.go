package httpserve

import (
	"bufio"
	"errors"
	"io"
	"net/http"
)

// body is a request's body, reused by every request of its connection.
type body struct {
	c       *conn
	remain  int64 // Content-Length bytes left
	chunked bool
	// chunkLeft is what the current chunk has left; needCRLF follows a
	// chunk's data.
	chunkLeft      int64
	needCRLF       bool
	expectContinue bool
	sentContinue   bool
	eof            bool
	closed         bool
	err            error // a framing error or the connection's
}

func (b *body) reset() {
	*b = body{c: b.c}
}

// done reports whether nothing of the body is left to read.
func (b *body) done() bool { return b.eof || b.err != nil }

func (b *body) Read(p []byte) (int, error) {
	if b.closed {
		return 0, http.ErrBodyReadAfterClose
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.eof {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.expectContinue && !b.sentContinue {
		b.sentContinue = true
		if !b.c.w.committed {
			if _, err := b.c.rwc.Write([]byte("HTTP/1.1 100 Continue\r\n\r\n")); err != nil {
				b.err = err
				return 0, err
			}
		}
	}
	var n int
	var err error
	if b.chunked {
		n, err = b.readChunked(p)
	} else {
		if int64(len(p)) > b.remain {
			p = p[:b.remain]
		}
		n, err = b.c.br.Read(p)
		b.remain -= int64(n)
		if b.remain == 0 {
			b.eof, err = true, io.EOF
		} else if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}
	if err == io.EOF {
		b.c.bodyEnded()
	} else if err != nil {
		b.err = err
		b.c.closeAfter = true
		b.c.bodyEnded()
	}
	return n, err
}

func (b *body) readChunked(p []byte) (int, error) {
	br := b.c.br
	for b.chunkLeft == 0 {
		if b.needCRLF {
			if err := b.readCRLF(); err != nil {
				return 0, err
			}
			b.needCRLF = false
		}
		size, err := b.readChunkSize()
		if err != nil {
			return 0, err
		}
		if size == 0 {
			if err := b.skipTrailers(); err != nil {
				return 0, err
			}
			b.eof = true
			return 0, io.EOF
		}
		b.chunkLeft = size
	}
	if int64(len(p)) > b.chunkLeft {
		p = p[:b.chunkLeft]
	}
	n, err := br.Read(p)
	b.chunkLeft -= int64(n)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	if b.chunkLeft == 0 {
		b.needCRLF = true
		// Take the chunk's end and, when it is buffered, the next size or
		// the last chunk, so a reader sees io.EOF with the final bytes.
		if br.Buffered() >= 5 {
			if peek, _ := br.Peek(5); string(peek) == "\r\n0\r\n" {
				if err := b.readCRLF(); err != nil {
					return n, err
				}
				b.needCRLF = false
				if _, err := b.readChunkSize(); err != nil {
					return n, err
				}
				if err := b.skipTrailers(); err != nil {
					return n, err
				}
				b.eof = true
				return n, io.EOF
			}
		}
	}
	return n, err
}

func (b *body) readCRLF() error {
	var buf [2]byte
	if _, err := io.ReadFull(b.c.br, buf[:1]); err != nil {
		return unexpected(err)
	}
	if buf[0] == '\r' {
		if _, err := io.ReadFull(b.c.br, buf[1:]); err != nil {
			return unexpected(err)
		}
		buf[0] = buf[1]
	}
	if buf[0] != '\n' {
		return errBadChunk
	}
	return nil
}

// readChunkSize reads a chunk-size line: hex digits, then optional
// extensions after ';', which are ignored.
func (b *body) readChunkSize() (int64, error) {
	line, err := b.c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return 0, errBadChunk // no size line is 4 KiB long
	}
	if err != nil {
		return 0, unexpected(err)
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	var size int64
	digits := 0
	i := 0
	for ; i < len(line); i++ {
		v := unhex(line[i])
		if v < 0 {
			break
		}
		if digits++; digits > 15 {
			return 0, errBadChunk
		}
		size = size<<4 | int64(v)
	}
	if digits == 0 {
		return 0, errBadChunk
	}
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
	}
	if i < len(line) && line[i] != ';' {
		return 0, errBadChunk
	}
	return size, nil
}

// skipTrailers reads the trailer section after the last chunk, up to the
// empty line; trailers are not handed to handlers.
func (b *body) skipTrailers() error {
	limit := 64 << 10
	for {
		line, err := b.c.readLine(&limit)
		if err != nil {
			var re *requestError
			if errors.As(err, &re) {
				return errBadChunk
			}
			return unexpected(err)
		}
		if len(line) == 0 {
			return nil
		}
	}
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Close marks the body closed; what is left is drained after the handler.
func (b *body) Close() error {
	b.closed = true
	return nil
}

// maxDrain is how much unread body the server reads after a handler to
// keep the connection, as net/http does; more closes it.
const maxDrain = 256 << 10

// drain reads what the handler left of the body, and reports whether the
// connection can carry another request.
func (b *body) drain() bool {
	if b.eof {
		return true
	}
	if b.err != nil {
		return false
	}
	if b.expectContinue && !b.sentContinue {
		// The client waits for a 100 it will not get; it may or may not
		// send the body, so the connection cannot be reused.
		return false
	}
	b.closed = false
	b.expectContinue = false
	var buf [4 << 10]byte
	read := 0
	for read <= maxDrain {
		n, err := b.Read(buf[:])
		read += n
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
	return false
}

package emulator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// WriteCA writes the CA certificate (PEM) to path atomically: into a new
// file of a random name in the same folder, then renamed over path. A
// symbolic link planted at path is replaced, never followed, and a reader
// never sees half a certificate.
func (s *Server) WriteCA(path string) error {
	if err := writeFileAtomic(path, s.ca.caPEM, 0o644); err != nil {
		if errors.Is(err, syscall.EROFS) {
			// The image's CA file is in /tmp: `docker run --read-only` needs
			// a writable /tmp.
			return fmt.Errorf("writing CA certificate: %w (on a read-only file system, give --ca-file a writable path, or with docker run --read-only add --tmpfs /tmp)", err)
		}
		return fmt.Errorf("writing CA certificate: %w", err)
	}
	return nil
}

func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// CreateTemp opens with O_EXCL: it never reuses a file or link someone
	// else made.
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

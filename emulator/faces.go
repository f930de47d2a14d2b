package emulator

// newFaces builds the cloud APIs mounted on the router.
func (s *Server) newFaces() ([]face, error) {
	return nil, nil
}

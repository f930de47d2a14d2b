package emulator

import "net/http"

// handleStorageSync is POST /_emulator/eventgrid/storage/sync: the storage
// accounts of Event Grid system topics are listed now, and the blob events
// of what changed are queued before the answer (testkit.SyncStorageEvents).
func (s *Server) handleStorageSync(w http.ResponseWriter, r *http.Request) {
	s.eventGrid.ServeStorageSync(w, r)
}

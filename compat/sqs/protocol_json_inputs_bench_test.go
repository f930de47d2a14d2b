package sqs

import (
	"strconv"
	"strings"
	"testing"
)

// benchBodies are the message path's usual requests as the SDK sends them:
// a batch of ten sends, a ReceiveMessage(10) and a batch of ten deletes.
func benchBodies() map[string][]byte {
	var send, del strings.Builder
	send.WriteString(`{"Entries":[`)
	del.WriteString(`{"Entries":[`)
	for i := range 10 {
		if i > 0 {
			send.WriteByte(',')
			del.WriteByte(',')
		}
		id := strconv.Itoa(i)
		send.WriteString(`{"Id":"m` + id + `","MessageBody":"{\"order\":{\"id\":\"o-` + id + `\",\"total\":12.5,\"items\":[\"a\",\"b\"]}}"}`)
		del.WriteString(`{"Id":"d` + id + `","ReceiptHandle":"AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a7VzYQmCw7N5y9vNZ6xx` + id + `=="}`)
	}
	const url = `"QueueUrl":"http://127.0.0.1:4566/000000000000/bench"`
	send.WriteString(`],` + url + `}`)
	del.WriteString(`],` + url + `}`)
	return map[string][]byte{
		"send":    []byte(send.String()),
		"receive": []byte(`{"MaxNumberOfMessages":10,` + url + `,"WaitTimeSeconds":0}`),
		"delete":  []byte(del.String()),
	}
}

// BenchmarkDecodeFast is the cost of reading each message-path request.
func BenchmarkDecodeFast(b *testing.B) {
	bodies := benchBodies()
	for _, name := range []string{"send", "receive", "delete"} {
		body := bodies[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var ok bool
				switch name {
				case "send":
					ok = decodeFast(body, new(sendMessageBatchInput))
				case "receive":
					ok = decodeFast(body, new(receiveMessageInput))
				case "delete":
					ok = decodeFast(body, new(deleteMessageBatchInput))
				}
				if !ok {
					b.Fatalf("decodeFast refused %s", body)
				}
			}
		})
	}
}

// Command quickstart points the official Go SDKs at a running GridBridge:
// armeventgrid creates a topic and a webhook subscription, azeventgrid
// publishes to it with the topic's key and the webhook here receives the
// event; the EventBridge SDK sends an event through a rule to an SQS queue,
// which the SQS SDK reads back.
//
//	go run ./cmd/emulator               # in another terminal
//	go run ./examples/quickstart/go
//
// In Go tests, testkit does this wiring for you (testkit.Start in-process,
// or testkit.Connect to a running emulator); this is what it hides.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

const subscriptionID = "00000000-0000-0000-0000-000000000000"

func main() {
	httpURL := env("GRIDBRIDGE_URL", "http://127.0.0.1:4080")
	httpsURL := env("GRIDBRIDGE_TLS_URL", "https://127.0.0.1:4443")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The Azure SDKs send keys and tokens only over HTTPS: trust the CA the
	// emulator generated at start, which it serves on both listeners.
	client := trusting(ctx, httpURL+"/_emulator/ca.pem")
	eventGrid(ctx, httpsURL, client)
	eventBridge(ctx, httpURL)
}

func eventGrid(ctx context.Context, httpsURL string, client *http.Client) {
	// The emulator is an Entra ID authority too: any client id and secret
	// get a token, and instance discovery would ask login.microsoftonline.com.
	cred, err := azidentity.NewClientSecretCredential(subscriptionID, "quickstart", "any-secret", &azidentity.ClientSecretCredentialOptions{
		ClientOptions:            policy.ClientOptions{Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: httpsURL + "/"}, Transport: client},
		DisableInstanceDiscovery: true,
	})
	check(err)
	factory, err := armeventgrid.NewClientFactory(subscriptionID, cred, &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Cloud: cloud.Configuration{
				ActiveDirectoryAuthorityHost: httpsURL + "/",
				Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
					cloud.ResourceManager: {Endpoint: httpsURL, Audience: "https://management.azure.com"},
				},
			},
			Transport: client,
		},
		DisableRPRegistration: true, // every provider is registered
	})
	check(err)

	hook, events := webhook()
	topics := factory.NewTopicsClient()
	created, err := topics.BeginCreateOrUpdate(ctx, "quickstart", "go-orders", armeventgrid.Topic{Location: to.Ptr("westus")}, nil)
	check(err)
	topic, err := created.PollUntilDone(ctx, nil)
	check(err)
	subscribed, err := factory.NewEventSubscriptionsClient().BeginCreateOrUpdate(ctx, *topic.ID, "audit", armeventgrid.EventSubscription{
		Properties: &armeventgrid.EventSubscriptionProperties{Destination: &armeventgrid.WebHookEventSubscriptionDestination{
			EndpointType: to.Ptr(armeventgrid.EndpointTypeWebHook),
			Properties:   &armeventgrid.WebHookEventSubscriptionDestinationProperties{EndpointURL: to.Ptr(hook)},
		}},
	}, nil)
	check(err)
	_, err = subscribed.PollUntilDone(ctx, nil)
	check(err)
	keys, err := topics.ListSharedAccessKeys(ctx, "quickstart", "go-orders", nil)
	check(err)

	publisher, err := azeventgrid.NewClientWithSharedKeyCredential(*topic.Properties.Endpoint, azcore.NewKeyCredential(*keys.Key1),
		&azeventgrid.ClientOptions{ClientOptions: policy.ClientOptions{Transport: client}})
	check(err)
	_, err = publisher.PublishEvents(ctx, []azeventgrid.Event{{
		ID: to.Ptr("go-1"), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/1"),
		DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(time.Now()), Data: map[string]int{"total": 42},
	}}, nil)
	check(err)
	select {
	case e := <-events:
		if e.ID != "go-1" || e.EventType != "Orders.Placed" {
			log.Fatalf("the webhook got %+v", e)
		}
		fmt.Printf("ok: topic %s delivered %s to the webhook\n", *topic.Name, e.ID)
	case <-ctx.Done():
		log.Fatal("no delivery to the webhook")
	}
}

func eventBridge(ctx context.Context, httpURL string) {
	// Plain HTTP works for the AWS APIs. Any credentials and region work:
	// GridBridge checks no signature (a twelve-digit access key id would be
	// taken as the account, else 000000000000).
	cfg := aws.Config{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
		BaseEndpoint: aws.String(httpURL),
	}
	events, queues := eventbridge.NewFromConfig(cfg), sqs.NewFromConfig(cfg) // GridBridge's own SQS
	queue, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("go-orders")})
	check(err)
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: queue.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	check(err)

	_, err = events.CreateEventBus(ctx, &eventbridge.CreateEventBusInput{Name: aws.String("go-shop")})
	check(err)
	_, err = events.PutRule(ctx, &eventbridge.PutRuleInput{
		EventBusName: aws.String("go-shop"), Name: aws.String("placed"),
		EventPattern: aws.String(`{"source":["shop"],"detail-type":["OrderPlaced"]}`),
	})
	check(err)
	_, err = events.PutTargets(ctx, &eventbridge.PutTargetsInput{
		EventBusName: aws.String("go-shop"), Rule: aws.String("placed"),
		Targets: []ebtypes.Target{{Id: aws.String("queue"), Arn: aws.String(attrs.Attributes["QueueArn"])}},
	})
	check(err)
	sent, err := events.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		EventBusName: aws.String("go-shop"), Source: aws.String("shop"), DetailType: aws.String("OrderPlaced"), Detail: aws.String(`{"order":7}`),
	}}})
	check(err)

	got, err := queues.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: queue.QueueUrl, WaitTimeSeconds: 10})
	check(err)
	if len(got.Messages) != 1 {
		log.Fatalf("the queue has %d messages, want 1", len(got.Messages))
	}
	var delivered struct {
		ID     string          `json:"id"`
		Detail json.RawMessage `json:"detail"`
	}
	check(json.Unmarshal([]byte(*got.Messages[0].Body), &delivered))
	if delivered.ID != *sent.Entries[0].EventId || string(delivered.Detail) != `{"order":7}` {
		log.Fatalf("the queue got %s", *got.Messages[0].Body)
	}
	fmt.Printf("ok: event %s reached the queue\n", delivered.ID)
}

// trusting is an HTTP client that trusts the CA at caURL.
func trusting(ctx context.Context, caURL string) *http.Client {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, caURL, nil)
	check(err)
	res, err := http.DefaultClient.Do(req)
	check(err)
	defer res.Body.Close()
	pem, err := io.ReadAll(res.Body)
	check(err)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		log.Fatalf("%s holds no certificate", caURL)
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// event is what the webhook reads of each delivered event.
type event struct {
	ID        string          `json:"id"`
	EventType string          `json:"eventType"`
	Data      json.RawMessage `json:"data"`
}

// webhook serves an Event Grid webhook on a free port: it answers the
// validation handshake and hands every event over.
func webhook() (string, <-chan event) {
	events := make(chan event, 16)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go func() {
		_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var batch []event
			if err := json.NewDecoder(r.Body).Decode(&batch); err != nil || len(batch) == 0 {
				http.Error(w, "want a JSON array of events", http.StatusBadRequest)
				return
			}
			if r.Header.Get("aeg-event-type") == "SubscriptionValidation" {
				var data struct{ ValidationCode string }
				if err := json.Unmarshal(batch[0].Data, &data); err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
				_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": data.ValidationCode})
				return
			}
			for _, e := range batch {
				events <- e
			}
		}))
	}()
	return "http://" + ln.Addr().String() + "/events", events
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

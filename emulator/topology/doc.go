// Package topology reads GridBridge's topology file and creates what it
// declares in a running emulator: Event Grid topics and event
// subscriptions, Event Grid namespaces with their topics and subscriptions,
// EventBridge buses, rules and targets, EventBridge event buses v2 with
// their subscribers, Scheduler's schedules, and EventBridge pipes. It is for
// users of a container (docker compose, testcontainers) who want resources
// at start without a setup script.
//
// Load and Parse read JSON or YAML and validate everything they can before
// anything is created: unknown fields (with the nearest known one), wrong
// types, missing or duplicate names, bad URLs and ARNs, names the clouds
// refuse. Every problem is reported as "file:line: field: message", e.g.
//
//	topology.yaml:12: eventgrid.topics[0].subscriptions[1].webhook: must be an http(s) URL
//
// Apply then sends the clouds' own API requests to the emulator's
// http.Handler in-process: ARM PUTs for Event Grid, AWS JSON 1.1 calls
// (AWSEvents.*, AWSEventsV2.*) for EventBridge. The package depends on no
// part of the emulator, only on those APIs; what the emulator refuses comes
// back as an *APIError naming the resource, its line and the emulator's
// message.
//
// # The file
//
//	eventgrid:
//	  subscriptionId: 00000000-0000-0000-0000-000000000000   # default
//	  resourceGroup: gridbridge                               # default
//	  location: westus                                        # default
//	  topics:
//	    - name: orders                      # 3-50 letters, digits, hyphens
//	      inputSchema: EventGridSchema      # | CloudEventSchemaV1_0 | CustomEventSchema
//	      inputSchemaMapping: { … }         # ARM's object; CustomEventSchema only
//	      keys: { key1: "…", key2: "…" }    # optional fixed keys (base64); else generated
//	      subscriptions:
//	        - name: audit                   # 3-64 letters, digits, hyphens
//	          webhook: http://app:8080/events   # or destination: { ARM destination object }
//	          skipValidation: true          # webhook only: no validation handshake
//	          eventDeliverySchema: CloudEventSchemaV1_0  # | EventGridSchema | CustomInputSchema
//	          filter: { includedEventTypes: [Shop.OrderPlaced] }   # ARM's filter object
//	          retryPolicy: { maxDeliveryAttempts: 5, eventTimeToLiveInMinutes: 60 }
//	          deadLetter: { account: devstoreaccount1, container: dead-letters }
//	  namespaces:
//	    - name: shop
//	      keys: { key1: "…" }
//	      topics:
//	        - name: orders
//	          eventRetentionInDays: 1       # 1-7, default 7
//	          keys: { key2: "…" }
//	          subscriptions:
//	            - name: worker              # a queue (pull) with the defaults
//	            - name: slow-worker
//	              queue: { receiveLockDurationInSeconds: 120 }   # ARM's queue object
//	            - name: pusher
//	              webhook: https://app:8443/events               # push delivery
//	              push: { maxDeliveryCount: 5 }                  # ARM's push object, without destination
//	            # or deliveryConfiguration: { ARM's object }; and eventDeliverySchema, filtersConfiguration
//	eventbridge:
//	  region: us-east-1                     # default
//	  account: "000000000000"               # default
//	  buses:
//	    - name: orders                      # "default" is allowed: it exists and is not created
//	      description: Orders of the shop
//	      rules:
//	        - name: big-orders
//	          eventPattern: { source: [shop] }   # a mapping, or the pattern's JSON text
//	          scheduleExpression: rate(1 minute) # default bus only; a rule needs a pattern, a schedule or both
//	          state: ENABLED                # | DISABLED | ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS
//	          description: …
//	          roleArn: arn:aws:iam::000000000000:role/events
//	          targets:                      # at most 5
//	            - id: q1
//	              arn: arn:aws:sqs:us-east-1:000000000000:orders
//	              # PutTargets members, camelCase or PascalCase: input (a mapping or JSON
//	              # text), inputPath, inputTransformer, retryPolicy, deadLetterConfig,
//	              # sqsParameters, httpParameters, kinesisParameters, roleArn; ecsParameters,
//	              # batchParameters, runCommandParameters, redshiftDataParameters,
//	              # sageMakerPipelineParameters and appSyncParameters are sent as written.
//	  v2:
//	    buses:
//	      - name: orders
//	        retentionPeriodInSeconds: 86400
//	        subscribers:
//	          - name: billing
//	            # CreateSubscriber members, camelCase or PascalCase; EventBusArn is filled in.
//	            invokeConfiguration: { targetArn: "arn:aws:sqs:us-east-1:000000000000:billing" }
//	            filterConfiguration: { filters: [{ scope: EVENT, pattern: { source: [shop] } }] }
//	            retryPolicy: { maxRetryAttempts: 3 }
//	            onFailureConfiguration: { arn: "arn:aws:sqs:us-east-1:000000000000:billing-dlq" }
//	  scheduler:                            # EventBridge Scheduler, created after the buses
//	    groups:
//	      - name: nightly-jobs              # "default" is allowed: it exists and is not created
//	        tags: { team: data }
//	        schedules:
//	          - name: compact
//	            # CreateSchedule members, camelCase or PascalCase; GroupName is filled in,
//	            # flexibleTimeWindow defaults to { mode: OFF }.
//	            scheduleExpression: cron(0 2 * * ? *)   # at(…), rate(…) or cron(…)
//	            scheduleExpressionTimezone: Europe/Paris
//	            target:
//	              arn: arn:aws:sqs:us-east-1:000000000000:jobs
//	              roleArn: arn:aws:iam::000000000000:role/scheduler
//	              input: { job: compact }   # a mapping (sent as JSON text) or text
//	              retryPolicy: { maximumRetryAttempts: 3 }
//	              deadLetterConfig: { arn: "arn:aws:sqs:us-east-1:000000000000:jobs-dlq" }
//	  pipes:                                # EventBridge Pipes, created last
//	    - name: orders-to-shop
//	      # CreatePipe members, camelCase or PascalCase; roleArn defaults to a role of the account.
//	      source: arn:aws:sqs:us-east-1:000000000000:orders
//	      sourceParameters:
//	        filterCriteria: { filters: [ { pattern: { body: { type: [order] } } } ] }
//	        sqsQueueParameters: { batchSize: 10, maximumBatchingWindowInSeconds: 5 }
//	      enrichment: arn:aws:events:us-east-1:000000000000:api-destination/enrich/…
//	      target: arn:aws:events:us-east-1:000000000000:event-bus/orders
//	      targetParameters:
//	        inputTemplate: { order: "<$.body.order>" }   # a mapping (sent as JSON text) or text
//	        eventBridgeEventBusParameters: { detailType: OrderPlaced, source: shop.orders }
//
// JSON files have the same structure. YAML anchors, aliases and merge keys
// (<<) work; a key written twice is an error.
//
// # What ARM cannot do
//
// Two things the file offers have no ARM request: choosing a key's value
// and skipping a webhook's validation handshake. Apply asks the Event Grid
// face for them with GridBridge-only request headers, X-GridBridge-Key1 and
// X-GridBridge-Key2 on the topic (or namespace, or namespace topic) PUT and
// X-GridBridge-Skip-Validation: true on the event subscription PUT. It reads
// fixed keys back with listKeys and returns a *HookMissingError when the
// emulator ignored them, rather than leave keys the application does not
// know.
//
// Without skipValidation a webhook subscription is validated as Azure does
// it, during Apply: the endpoint must be up and answer the handshake when
// GridBridge starts.
package topology

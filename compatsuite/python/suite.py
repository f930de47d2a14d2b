"""GridBridge's Python compatibility suite.

compatsuite_test.go runs it with Debian's /usr/bin/python3 (python3-azure,
python3-boto3; a pyenv python earlier on PATH does not see them) and:

  GRIDBRIDGE_HTTP, GRIDBRIDGE_HTTPS  the emulator's two listeners
  GRIDBRIDGE_CA                      the emulator's CA certificate (PEM)
  GRIDBRIDGE_AZURE_STORAGE           Azurite's connection string (dead letters)
  GRIDBRIDGE_PY_RESULTS              where to write one JSON line per test
  AZURE_*, REQUESTS_CA_BUNDLE        what DefaultAzureCredential reads

Every test is named "<package> › <operation>" and runs in order: later tests
use what earlier ones created. A test asserts what the client got back and,
for publishing, that the event reached its webhook or dead-letter blob.
"""

import datetime
import http.server
import json
import os
import sys
import threading
import time
import traceback
import urllib.parse
import urllib.request
import uuid

import boto3
import botocore.exceptions
import azure.core.exceptions as azerr
from azure.core.credentials import AzureKeyCredential, AzureSasCredential
from azure.core.messaging import CloudEvent
from azure.eventgrid import EventGridEvent, EventGridPublisherClient, generate_sas
from azure.identity import ClientSecretCredential, DefaultAzureCredential
from azure.mgmt.eventgrid import EventGridManagementClient
from azure.mgmt.eventgrid.models import (
    EventSubscription,
    EventSubscriptionFilter,
    RetryPolicy,
    StorageBlobDeadLetterDestination,
    WebHookEventSubscriptionDestination,
)
from azure.mgmt.resource import ResourceManagementClient, SubscriptionClient
from azure.storage.blob import BlobServiceClient

HTTP = os.environ["GRIDBRIDGE_HTTP"]
HTTPS = os.environ["GRIDBRIDGE_HTTPS"]
CA = os.environ["GRIDBRIDGE_CA"]
STORAGE = os.environ["GRIDBRIDGE_AZURE_STORAGE"]
SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
RG = "compat-python"
DLQ_CONTAINER = "python-dlq-%s" % uuid.uuid4().hex[:12]  # fresh per run: Azurite outlives the emulator
ARM_SCOPE = "https://management.azure.com/.default"
EG_SCOPE = "https://eventgrid.azure.net/.default"

AZ_IDENTITY = "azure-identity"
AZ_RESOURCE = "azure-mgmt-resource"
AZ_MGMT_EG = "azure-mgmt-eventgrid"
AZ_EG = "azure-eventgrid"
AZ_BLOB = "azure-storage-blob"
BOTO = "boto3"


def versions():
    """The versions of the packages under test, for the README's table
    (Debian ships azure-* as one python3-azure package, so each is read
    from its module's _version)."""
    import importlib

    def azure_version(module):
        return importlib.import_module(module + "._version").VERSION

    return {
        AZ_IDENTITY: azure_version("azure.identity"),
        AZ_RESOURCE: azure_version("azure.mgmt.resource"),
        AZ_MGMT_EG: azure_version("azure.mgmt.eventgrid"),
        AZ_EG: azure_version("azure.eventgrid"),
        AZ_BLOB: azure_version("azure.storage.blob"),
        BOTO: boto3.__version__,
    }


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def equal(name, got, want):
    check(got == want, "%s = %r, want %r" % (name, got, want))


def raises(fn, exc_type, status=None):
    """Runs fn and checks that it raises exc_type (with HTTP status)."""
    try:
        fn()
    except exc_type as e:
        got = getattr(e, "status_code", None)
        if status is not None:
            check(got == status, "want HTTP %s, got %s: %s" % (status, got, e))
        return e
    raise AssertionError("want %s, got no error" % exc_type.__name__)


def inspect(path, **query):
    """GETs the inspection API (long polls answer as soon as they can)."""
    url = "%s/_emulator/%s?%s" % (HTTP, path, urllib.parse.urlencode(query))
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def advance(by):
    req = urllib.request.Request(HTTP + "/_emulator/clock/advance", data=json.dumps({"by": by}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()


class Webhook:
    """An Event Grid webhook: answers the validation handshake with the
    validationResponse, and every notification with the status its path
    asks for (/<name>/reject answers 400). Keeps what it received."""

    def __init__(self):
        hook = self
        self.received = []
        self.cond = threading.Condition()

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_OPTIONS(self):
                self.send_response(200)
                self.send_header("WebHook-Allowed-Origin", self.headers.get("WebHook-Request-Origin", "*"))
                self.end_headers()

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.headers.get("aeg-event-type") == "SubscriptionValidation":
                    event = json.loads(body)[0]
                    out = json.dumps({"validationResponse": event["data"]["validationCode"]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                    return
                with hook.cond:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    hook.received.append((self.path, headers, json.loads(body)))
                    hook.cond.notify_all()
                self.send_response(400 if self.path.endswith("/reject") else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]

    def url(self, path):
        return "%s/%s" % (self.base, path)

    def wait_for(self, path, event_id, timeout=10):
        """Returns the events of the first delivery to path that carries
        event_id (id, or orderId for custom events)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for p, headers, body in self.received:
                    events = body if isinstance(body, list) else [body]
                    if p == "/" + path and any(e.get("id", e.get("orderId")) == event_id for e in events):
                        return headers, events
                left = deadline - time.monotonic()
                check(left > 0, "no delivery of %s to /%s within %ss" % (event_id, path, timeout))
                self.cond.wait(left)


class Suite:
    def __init__(self):
        self.tests = []
        self.state = {}

    def test(self, package, operation):
        def register(fn):
            self.tests.append(("%s › %s" % (package, operation), fn))
            return fn
        return register

    def run(self, results_path):
        failed = 0
        with open(results_path, "w") as out:
            for name, fn in self.tests:
                started = time.monotonic()
                status, error = "pass", ""
                try:
                    fn(self.state)
                except Exception as e:  # noqa: BLE001 — every failure is reported
                    status, error = "fail", "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc())
                    failed += 1
                ms = (time.monotonic() - started) * 1000
                print("%s %s (%.0f ms)%s" % ("ok  " if status == "pass" else "FAIL", name, ms,
                                             "\n" + error if error else ""), flush=True)
                out.write(json.dumps({"name": name, "file": "suite.py", "nesting": 0, "status": status,
                                      "durationMs": ms, "error": error}) + "\n")
            out.write(json.dumps({"versions": versions()}) + "\n")
        return failed


suite = Suite()
test = suite.test


def credential():
    """ClientSecretCredential against the emulator's authority. Debian's
    azure-identity 1.13.0b2 has no disable_instance_discovery, and MSAL
    Python asks login.microsoftonline.com about any other authority host;
    the AD FS-shaped authority (tenant "adfs") is the one it trusts as is."""
    return ClientSecretCredential("adfs", "compat-python", "compat-secret", authority=HTTPS, connection_verify=CA)


def arm_kwargs():
    return {"base_url": HTTPS, "credential_scopes": [ARM_SCOPE], "connection_verify": CA}


# ---- azure-identity -----------------------------------------------------------


@test(AZ_IDENTITY, "ClientSecretCredential.get_token (AD FS authority)")
def _(s):
    cred = credential()
    token = cred.get_token(ARM_SCOPE)
    check(token.token.count(".") == 2, "not a JWT: %r" % token.token[:20])
    claims = json.loads(_b64(token.token.split(".")[1]))
    check(claims["aud"].rstrip("/") == "https://management.azure.com", "aud %r" % claims["aud"])
    equal("appid", claims["appid"], "compat-python")
    check(token.expires_on > time.time(), "expires_on %r is past" % token.expires_on)
    s["cred"] = cred


@test(AZ_IDENTITY, "DefaultAzureCredential.get_token (AZURE_* environment variables)")
def _(s):
    # The environment (AZURE_TENANT_ID=adfs, AZURE_AUTHORITY_HOST, client id
    # and secret, REQUESTS_CA_BUNDLE) comes from compatsuite_test.go.
    cred = DefaultAzureCredential(exclude_interactive_browser_credential=True)
    token = cred.get_token(EG_SCOPE)
    claims = json.loads(_b64(token.token.split(".")[1]))
    check(claims["aud"].rstrip("/") == "https://eventgrid.azure.net", "aud %r" % claims["aud"])
    equal("appid", claims["appid"], os.environ["AZURE_CLIENT_ID"])
    s["default_cred"] = cred


def _b64(s):
    import base64
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


# ---- azure-mgmt-resource ------------------------------------------------------


@test(AZ_RESOURCE, "SubscriptionClient.subscriptions.list")
def _(s):
    client = SubscriptionClient(s["cred"], **arm_kwargs())
    subs = list(client.subscriptions.list())
    check(any(x.subscription_id == SUBSCRIPTION and x.state == "Enabled" for x in subs), "subscriptions %r" % subs)


@test(AZ_RESOURCE, "SubscriptionClient.tenants.list")
def _(s):
    client = SubscriptionClient(s["cred"], **arm_kwargs())
    tenants = list(client.tenants.list())
    equal("tenants", len(tenants), 1)
    check(tenants[0].tenant_id, "no tenant id")


@test(AZ_RESOURCE, "ResourceManagementClient.resource_groups.create_or_update")
def _(s):
    client = ResourceManagementClient(s["cred"], SUBSCRIPTION, **arm_kwargs())
    rg = client.resource_groups.create_or_update(RG, {"location": "westeurope", "tags": {"suite": "python"}})
    equal("name", rg.name, RG)
    equal("location", rg.location, "westeurope")
    equal("provisioning_state", rg.properties.provisioning_state, "Succeeded")
    e = raises(lambda: client.resource_groups.create_or_update("no-location", {}), azerr.HttpResponseError, 400)
    equal("error code", e.error.code, "LocationRequired")
    s["rm"] = client


@test(AZ_RESOURCE, "ResourceManagementClient.resource_groups.get / check_existence / list")
def _(s):
    client = s["rm"]
    equal("tags", client.resource_groups.get(RG).tags, {"suite": "python"})
    equal("check_existence", client.resource_groups.check_existence(RG), True)
    equal("check_existence (missing)", client.resource_groups.check_existence("compat-python-missing"), False)
    raises(lambda: client.resource_groups.get("compat-python-missing"), azerr.ResourceNotFoundError, 404)
    check(RG in [g.name for g in client.resource_groups.list()], "%s not listed" % RG)


@test(AZ_RESOURCE, "ResourceManagementClient.providers.get")
def _(s):
    p = s["rm"].providers.get("Microsoft.EventGrid")
    equal("namespace", p.namespace, "Microsoft.EventGrid")
    equal("registration_state", p.registration_state, "Registered")


# ---- azure-mgmt-eventgrid -----------------------------------------------------

TOPICS = {
    "eg": ("compat-py-eg", "EventGridSchema"),
    "ce": ("compat-py-ce", "CloudEventSchemaV1_0"),
    "custom": ("compat-py-custom", "CustomEventSchema"),
}


@test(AZ_MGMT_EG, "topics.begin_create_or_update")
def _(s):
    client = EventGridManagementClient(s["cred"], SUBSCRIPTION, **arm_kwargs())
    s["eg"] = client
    s["topics"] = {}
    for key, (name, schema) in TOPICS.items():
        topic = client.topics.begin_create_or_update(RG, name, {"location": "westeurope", "input_schema": schema}).result()
        equal("name", topic.name, name)
        equal("input_schema", topic.input_schema, schema)
        equal("provisioning_state", topic.provisioning_state, "Succeeded")
        check(topic.endpoint.startswith("https://"), "endpoint %r" % topic.endpoint)
        s["topics"][key] = {"name": name, "id": topic.id, "endpoint": topic.endpoint}


@test(AZ_MGMT_EG, "topics.get / list_by_resource_group")
def _(s):
    client = s["eg"]
    t = s["topics"]["eg"]
    equal("endpoint", client.topics.get(RG, t["name"]).endpoint, t["endpoint"])
    names = sorted(x.name for x in client.topics.list_by_resource_group(RG))
    equal("topics", names, sorted(n for n, _ in TOPICS.values()))
    raises(lambda: client.topics.get(RG, "compat-py-missing"), azerr.ResourceNotFoundError, 404)


@test(AZ_MGMT_EG, "topics.list_shared_access_keys / begin_regenerate_key")
def _(s):
    client = s["eg"]
    for t in s["topics"].values():
        keys = client.topics.list_shared_access_keys(RG, t["name"])
        check(keys.key1 and keys.key2 and keys.key1 != keys.key2, "keys %r" % keys)
        t["key"] = keys.key1
    t = s["topics"]["eg"]
    before = client.topics.list_shared_access_keys(RG, t["name"])
    after = client.topics.begin_regenerate_key(RG, t["name"], {"key_name": "key2"}).result()
    equal("key1 after regenerating key2", after.key1, before.key1)
    check(after.key2 != before.key2, "key2 was not regenerated")


def created(client, scope, name, props):
    """Creates an event subscription and returns its provisioning state.

    Azure answers the PUT with 201 and an Azure-AsyncOperation to poll, then
    the poller GETs the subscription; GridBridge finishes at once (201 with
    the subscription), and msrest's polymorphic deserialization consumes
    the discriminator of the one response body it reads twice, so
    result().destination comes back as the base class. The tests read the
    subscription with get() instead."""
    poller = client.event_subscriptions.begin_create_or_update(scope, name, props)
    poller.wait()
    check(poller.done(), "the create of %s did not finish" % name)


@test(AZ_MGMT_EG, "event_subscriptions.begin_create_or_update (WebHook, dead letter to a storage blob)")
def _(s):
    hook = s["hook"] = Webhook()
    client = s["eg"]
    storage_id = "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Storage/storageAccounts/devstoreaccount1" % (SUBSCRIPTION, RG)
    for key, t in s["topics"].items():
        sub_name = "py-" + key
        props = EventSubscription(destination=WebHookEventSubscriptionDestination(endpoint_url=hook.url(sub_name)))
        created(client, t["id"], sub_name, props)
        sub = client.event_subscriptions.get(t["id"], sub_name)
        equal("endpoint_type", sub.destination.endpoint_type, "WebHook")
        equal("provisioning_state", sub.provisioning_state, "Succeeded")
        t["sub"] = sub_name
    # A subscription whose webhook answers 400: Event Grid dead-letters at once.
    props = EventSubscription(
        destination=WebHookEventSubscriptionDestination(endpoint_url=hook.url("py-dlq/reject")),
        dead_letter_destination=StorageBlobDeadLetterDestination(resource_id=storage_id, blob_container_name=DLQ_CONTAINER),
        retry_policy=RetryPolicy(max_delivery_attempts=1, event_time_to_live_in_minutes=5),
        filter=EventSubscriptionFilter(included_event_types=["Orders.Rejected"]),
    )
    created(client, s["topics"]["ce"]["id"], "py-dlq", props)
    sub = client.event_subscriptions.get(s["topics"]["ce"]["id"], "py-dlq")
    equal("dead letter container", sub.dead_letter_destination.blob_container_name, DLQ_CONTAINER)
    equal("max delivery attempts", sub.retry_policy.max_delivery_attempts, 1)


@test(AZ_MGMT_EG, "event_subscriptions.get / list_by_resource / get_full_url")
def _(s):
    client = s["eg"]
    t = s["topics"]["eg"]
    sub = client.event_subscriptions.get(t["id"], t["sub"])
    equal("endpoint_type", sub.destination.endpoint_type, "WebHook")
    names = sorted(x.name for x in client.event_subscriptions.list_by_resource(RG, "Microsoft.EventGrid", "topics", t["name"]))
    equal("subscriptions", names, [t["sub"]])
    equal("full url", client.event_subscriptions.get_full_url(t["id"], t["sub"]).endpoint_url, s["hook"].url(t["sub"]))


# ---- azure-eventgrid ----------------------------------------------------------


def publisher(s, key, credential):
    return EventGridPublisherClient(s["topics"][key]["endpoint"], credential, connection_verify=CA)


@test(AZ_EG, "EventGridPublisherClient.send (EventGridEvent, AzureKeyCredential)")
def _(s):
    t = s["topics"]["eg"]
    publisher(s, "eg", AzureKeyCredential(t["key"])).send([
        EventGridEvent(subject="orders/1", event_type="Orders.Placed", data={"total": 1}, data_version="1.0", id="py-key-1")])
    headers, events = s["hook"].wait_for(t["sub"], "py-key-1")
    equal("eventType", events[0]["eventType"], "Orders.Placed")
    equal("data", events[0]["data"], {"total": 1})
    equal("aeg-subscription-name", headers.get("aeg-subscription-name"), t["sub"].upper())


@test(AZ_EG, "EventGridPublisherClient.send (CloudEvent, AzureKeyCredential)")
def _(s):
    t = s["topics"]["ce"]
    publisher(s, "ce", AzureKeyCredential(t["key"])).send([
        CloudEvent(source="/compat/python", type="Orders.Placed", data={"total": 2}, subject="orders/2", id="py-ce-1")])
    _, events = s["hook"].wait_for(t["sub"], "py-ce-1")
    equal("specversion", events[0]["specversion"], "1.0")
    equal("source", events[0]["source"], "/compat/python")
    equal("data", events[0]["data"], {"total": 2})


@test(AZ_EG, "EventGridPublisherClient.send (custom schema dict, AzureKeyCredential)")
def _(s):
    t = s["topics"]["custom"]
    event = {"orderId": "py-custom-1", "kind": "placed", "lines": [{"sku": "A-1", "qty": 2}]}
    publisher(s, "custom", AzureKeyCredential(t["key"])).send([event])
    _, events = s["hook"].wait_for(t["sub"], "py-custom-1")
    equal("custom event", events, [event])


@test(AZ_EG, "EventGridPublisherClient.send (AzureSasCredential from generate_sas)")
def _(s):
    t = s["topics"]["eg"]
    # generate_sas writes the expiry as str(datetime): "2026-12-01 14:32:40.123456+00:00".
    expiry = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
    sas = generate_sas(t["endpoint"], t["key"], expiry)
    check(" " not in sas and "&e=" in sas, "sas %r" % sas)
    publisher(s, "eg", AzureSasCredential(sas)).send([
        EventGridEvent(subject="orders/3", event_type="Orders.Shipped", data={}, data_version="1.0", id="py-sas-1")])
    s["hook"].wait_for(t["sub"], "py-sas-1")
    expired = generate_sas(t["endpoint"], t["key"], datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5))
    raises(lambda: publisher(s, "eg", AzureSasCredential(expired)).send([
        EventGridEvent(subject="x", event_type="x", data={}, data_version="1")]), azerr.ClientAuthenticationError, 401)


@test(AZ_EG, "EventGridPublisherClient.send (ClientSecretCredential, Event Grid audience)")
def _(s):
    t = s["topics"]["ce"]
    publisher(s, "ce", s["default_cred"]).send([
        CloudEvent(source="/compat/python", type="Orders.Cancelled", data={}, id="py-token-1")])
    s["hook"].wait_for(t["sub"], "py-token-1")


@test(AZ_EG, "EventGridPublisherClient.send (every schema with SAS and with a token)")
def _(s):
    expiry = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
    for key, make in (
        ("eg", lambda i: EventGridEvent(subject="m", event_type="Matrix", data={}, data_version="1.0", id=i)),
        ("ce", lambda i: CloudEvent(source="/compat/python", type="Matrix", data={}, id=i)),
        ("custom", lambda i: {"orderId": i, "kind": "matrix"}),
    ):
        t = s["topics"][key]
        creds = {"sas": AzureSasCredential(generate_sas(t["endpoint"], t["key"], expiry)), "token": s["default_cred"]}
        for how, cred in creds.items():
            event_id = "py-matrix-%s-%s" % (key, how)
            publisher(s, key, cred).send([make(event_id)])
            s["hook"].wait_for(t["sub"], event_id)


@test(AZ_EG, "EventGridPublisherClient.send with a wrong key, an ARM token (401)")
def _(s):
    t = s["topics"]["eg"]
    event = [EventGridEvent(subject="x", event_type="x", data={}, data_version="1")]
    raises(lambda: publisher(s, "eg", AzureKeyCredential("d3Jvbmcta2V5LWZvci10aGUtdG9waWM=")).send(event),
           azerr.ClientAuthenticationError, 401)

    class ArmTokenOnly:
        """A credential that answers every scope with an ARM token, as a
        misconfigured app would."""

        def get_token(self, *scopes, **kwargs):
            return s["cred"].get_token(ARM_SCOPE)

    raises(lambda: publisher(s, "eg", ArmTokenOnly()).send(event), azerr.ClientAuthenticationError, 401)


# ---- azure-storage-blob (dead letters in Azurite) -----------------------------


@test(AZ_BLOB, "ContainerClient.list_blobs / download_blob (a dead-letter record)")
def _(s):
    t = s["topics"]["ce"]
    blobs = BlobServiceClient.from_connection_string(STORAGE)
    try:
        blobs.create_container(DLQ_CONTAINER)
    except azerr.ResourceExistsError:
        pass
    publisher(s, "ce", AzureKeyCredential(t["key"])).send([
        CloudEvent(source="/compat/python", type="Orders.Rejected", data={"total": 9}, id="py-dlq-1")])
    s["hook"].wait_for("py-dlq/reject", "py-dlq-1")
    # Event Grid writes a dead letter some minutes after the last attempt:
    # move the emulator's clock past it.
    advance("10m")
    page = inspect("deadletters", subscription="py-dlq", min=1, wait="10s")
    check(len(page["entries"]) >= 1, "no dead letter journalled: %r" % page)
    container = blobs.get_container_client(DLQ_CONTAINER)
    # Blobs are named <SUBSCRIPTION>/yyyy/m/d/h/<uuid>.json.
    names = [b.name for b in container.list_blobs(name_starts_with="PY-DLQ/")]
    check(len(names) == 1, "blobs under PY-DLQ/: %r" % names)
    records = json.loads(container.download_blob(names[0]).readall())
    equal("events in the blob", [r["id"] for r in records], ["py-dlq-1"])
    equal("deadletterreason", records[0].get("deadletterreason"), "UndeliverableDueToClientError")
    equal("deliveryattempts", records[0].get("deliveryattempts"), 1)
    equal("data", records[0].get("data"), {"total": 9})


# ---- boto3 events -------------------------------------------------------------


def events():
    return boto3.client("events", endpoint_url=HTTP, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test")


BUS = "compat-python-%s" % uuid.uuid4().hex[:8]
PATTERN = json.dumps({"source": ["compat.python"], "detail-type": ["OrderPlaced"], "detail": {"total": [{"numeric": [">", 10]}]}})


@test(BOTO, "events.create_event_bus / describe_event_bus / list_event_buses")
def _(s):
    c = s["events"] = events()
    arn = c.create_event_bus(Name=BUS)["EventBusArn"]
    equal("EventBusArn", arn, "arn:aws:events:us-east-1:000000000000:event-bus/" + BUS)
    equal("describe Name", c.describe_event_bus(Name=BUS)["Name"], BUS)
    names = [b["Name"] for b in c.list_event_buses(NamePrefix="compat-python-")["EventBuses"]]
    check(BUS in names, "%s not in %r" % (BUS, names))


@test(BOTO, "events.put_rule / describe_rule / list_rules")
def _(s):
    c = s["events"]
    arn = c.put_rule(Name="orders", EventBusName=BUS, EventPattern=PATTERN, State="ENABLED")["RuleArn"]
    equal("RuleArn", arn, "arn:aws:events:us-east-1:000000000000:rule/%s/orders" % BUS)
    rule = c.describe_rule(Name="orders", EventBusName=BUS)
    equal("State", rule["State"], "ENABLED")
    equal("EventPattern", json.loads(rule["EventPattern"]), json.loads(PATTERN))
    equal("rules", [r["Name"] for r in c.list_rules(EventBusName=BUS)["Rules"]], ["orders"])


@test(BOTO, "events.put_targets / list_targets_by_rule")
def _(s):
    c = s["events"]
    queue = "arn:aws:sqs:us-east-1:000000000000:compat-python-%s" % uuid.uuid4().hex[:8]
    out = c.put_targets(Rule="orders", EventBusName=BUS, Targets=[{"Id": "queue", "Arn": queue}])
    equal("FailedEntryCount", out["FailedEntryCount"], 0)
    targets = c.list_targets_by_rule(Rule="orders", EventBusName=BUS)["Targets"]
    equal("targets", [(x["Id"], x["Arn"]) for x in targets], [("queue", queue)])


@test(BOTO, "events.test_event_pattern")
def _(s):
    c = s["events"]
    for total, want in ((42, True), (5, False)):
        event = json.dumps({"id": "1", "account": "000000000000", "source": "compat.python", "time": "2026-01-01T00:00:00Z",
                            "region": "us-east-1", "resources": [], "detail-type": "OrderPlaced", "detail": {"total": total}})
        equal("Result for total %d" % total, c.test_event_pattern(EventPattern=PATTERN, Event=event)["Result"], want)


@test(BOTO, "events.put_events")
def _(s):
    c = s["events"]
    out = c.put_events(Entries=[
        {"EventBusName": BUS, "Source": "compat.python", "DetailType": "OrderPlaced", "Detail": json.dumps({"total": 42})},
        {"EventBusName": BUS, "Source": "compat.python", "DetailType": "OrderPlaced", "Detail": json.dumps({"total": 5})},
        {"EventBusName": BUS, "Source": "compat.python", "DetailType": "OrderPlaced", "Detail": "{not json"},
    ])
    equal("FailedEntryCount", out["FailedEntryCount"], 1)
    check(out["Entries"][0].get("EventId") and out["Entries"][1].get("EventId"), "entries %r" % out["Entries"])
    equal("bad entry ErrorCode", out["Entries"][2].get("ErrorCode"), "MalformedDetail")
    # Only the matching event (total 42) is delivered to the rule's target.
    page = inspect("deliveries", bus=BUS, rule="orders", min=1, wait="10s")
    equal("deliveries", len(page["entries"]), 1)
    entry = page["entries"][0]
    equal("event id", entry["eventIds"], [out["Entries"][0]["EventId"]])
    equal("delivered detail", entry["request"]["body"]["detail"], {"total": 42})


@test(BOTO, "errors (ResourceNotFoundException, InvalidEventPatternException, ResourceAlreadyExistsException)")
def _(s):
    c = s["events"]

    def code(fn):
        try:
            fn()
        except botocore.exceptions.ClientError as e:
            return e.response["Error"]["Code"]
        return None

    equal("describe a missing bus", code(lambda: c.describe_event_bus(Name=BUS + "-missing")), "ResourceNotFoundException")
    equal("a bad pattern", code(lambda: c.put_rule(Name="bad", EventBusName=BUS, EventPattern="{not json")), "InvalidEventPatternException")
    equal("the bus again", code(lambda: c.create_event_bus(Name=BUS)), "ResourceAlreadyExistsException")
    check(isinstance(c.exceptions.ResourceNotFoundException, type), "modelled exceptions are missing")


@test(BOTO, "events.remove_targets / delete_rule / delete_event_bus")
def _(s):
    c = s["events"]
    equal("FailedEntryCount", c.remove_targets(Rule="orders", EventBusName=BUS, Ids=["queue"])["FailedEntryCount"], 0)
    c.delete_rule(Name="orders", EventBusName=BUS)
    c.delete_event_bus(Name=BUS)
    names = [b["Name"] for b in c.list_event_buses(NamePrefix="compat-python-")["EventBuses"]]
    check(BUS not in names, "%s still listed" % BUS)


# ---- teardown through ARM ------------------------------------------------------


@test(AZ_MGMT_EG, "event_subscriptions.begin_delete / topics.begin_delete")
def _(s):
    client = s["eg"]
    for t in s["topics"].values():
        client.event_subscriptions.begin_delete(t["id"], t["sub"]).result()
        client.topics.begin_delete(RG, t["name"]).result()
        raises(lambda: client.topics.get(RG, t["name"]), azerr.ResourceNotFoundError, 404)


@test(AZ_RESOURCE, "ResourceManagementClient.resource_groups.begin_delete")
def _(s):
    s["rm"].resource_groups.begin_delete(RG).result()
    equal("check_existence after delete", s["rm"].resource_groups.check_existence(RG), False)


if __name__ == "__main__":
    sys.exit(1 if suite.run(os.environ["GRIDBRIDGE_PY_RESULTS"]) else 0)

"""Event Grid with the Python Azure SDKs: a topic and a webhook subscription
through ARM (azure-mgmt-eventgrid), events published with the topic's key
and with a SAS token (azure-eventgrid), and one the webhook refuses read back
as a dead letter from Azurite (azure-storage-blob).

    npx --yes --package=azurite azurite-blob --inMemoryPersistence --skipApiVersionCheck
    go run ./cmd/emulator --clock virtual --azure-storage UseDevelopmentStorage=true
    python3 examples/quickstart/python/eventgrid_azure.py
"""

import datetime
import http.server
import json
import os
import tempfile
import threading
import time
import urllib.request
import uuid

from azure.core.credentials import AzureKeyCredential, AzureSasCredential
from azure.eventgrid import EventGridEvent, EventGridPublisherClient, generate_sas
from azure.identity import ClientSecretCredential
from azure.mgmt.eventgrid import EventGridManagementClient
from azure.mgmt.eventgrid.models import EventSubscription, StorageBlobDeadLetterDestination, WebHookEventSubscriptionDestination
from azure.storage.blob import BlobServiceClient

HTTP = os.environ.get("GRIDBRIDGE_URL", "http://127.0.0.1:4080")
HTTPS = os.environ.get("GRIDBRIDGE_TLS_URL", "https://127.0.0.1:4443")
# Azurite's well-known development account.
STORAGE = os.environ.get("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                         "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"
                         "BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;")
SUBSCRIPTION, GROUP = "00000000-0000-0000-0000-000000000000", "quickstart"

# The SDKs send keys and tokens only over HTTPS: trust the CA the emulator
# generated at start (it serves it on both listeners).
ca = os.path.join(tempfile.mkdtemp(), "gridbridge-ca.pem")
with urllib.request.urlopen(HTTP + "/_emulator/ca.pem") as r, open(ca, "wb") as f:
    f.write(r.read())

# The emulator is an Entra ID authority too. This azure-identity needs the AD
# FS shape (tenant "adfs"); any client id and secret work.
credential = ClientSecretCredential("adfs", "quickstart", "any-secret", authority=HTTPS, connection_verify=ca)
arm = EventGridManagementClient(credential, SUBSCRIPTION, base_url=HTTPS, connection_verify=ca,
                                credential_scopes=["https://management.azure.com/.default"])


class Webhook(http.server.BaseHTTPRequestHandler):
    """Answers the validation handshake, keeps every event, and refuses (400)
    those of type Orders.Rejected: Event Grid never retries a 400."""
    received = {}
    lock = threading.Condition()

    def do_POST(self):
        events = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.headers.get("aeg-event-type") == "SubscriptionValidation":
            return self.answer(200, {"validationResponse": events[0]["data"]["validationCode"]})
        with Webhook.lock:
            Webhook.received.update((e["id"], e) for e in events)
            Webhook.lock.notify_all()
        self.answer(400 if events[0]["eventType"] == "Orders.Rejected" else 200)

    def answer(self, status, body=None):
        data = json.dumps(body).encode() if body else b""
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

    @staticmethod
    def wait_for(event_id, timeout=10):
        deadline = time.monotonic() + timeout
        with Webhook.lock:
            while event_id not in Webhook.received:
                assert Webhook.lock.wait(deadline - time.monotonic()), "no delivery of " + event_id
            return Webhook.received[event_id]


hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
threading.Thread(target=hook.serve_forever, daemon=True).start()

# A topic, and a subscription that dead-letters into a container. The
# container must exist first, as in Azure.
topic = arm.topics.begin_create_or_update(GROUP, "py-orders", {"location": "westus"}).result()
key = arm.topics.list_shared_access_keys(GROUP, topic.name).key1
container = "dead-letters-" + uuid.uuid4().hex[:8]
BlobServiceClient.from_connection_string(STORAGE).create_container(container)
account_id = "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Storage/storageAccounts/devstoreaccount1" % (SUBSCRIPTION, GROUP)
arm.event_subscriptions.begin_create_or_update(topic.id, "audit", EventSubscription(
    destination=WebHookEventSubscriptionDestination(endpoint_url="http://127.0.0.1:%d/events" % hook.server_address[1]),
    dead_letter_destination=StorageBlobDeadLetterDestination(resource_id=account_id, blob_container_name=container),
)).wait()


def order(event_id, event_type="Orders.Placed"):
    return EventGridEvent(id=event_id, subject="orders/" + event_id, event_type=event_type, data={"total": 42}, data_version="1.0")


# Publish with the topic's key, and with a SAS token made from it.
EventGridPublisherClient(topic.endpoint, AzureKeyCredential(key), connection_verify=ca).send([order("with-key")])
sas = generate_sas(topic.endpoint, key, datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1))
EventGridPublisherClient(topic.endpoint, AzureSasCredential(sas), connection_verify=ca).send([order("with-sas")])
assert Webhook.wait_for("with-key")["data"] == {"total": 42}
assert Webhook.wait_for("with-sas")["subject"] == "orders/with-sas"

# The refused event is dead-lettered 5 minutes after its attempt. On the
# virtual clock the script moves time instead of waiting (POST
# /_emulator/clock/advance; a real clock refuses it with 409).
EventGridPublisherClient(topic.endpoint, AzureKeyCredential(key), connection_verify=ca).send([order("refused", "Orders.Rejected")])
Webhook.wait_for("refused")
with urllib.request.urlopen(HTTP + "/_emulator/deliveries?subscription=audit&outcome=BadRequest&min=1&wait=10s") as r:
    assert json.loads(r.read())["entries"], "the 400 was not recorded"
advance = urllib.request.Request(HTTP + "/_emulator/clock/advance", data=b'{"by":"6m"}',
                                 headers={"Content-Type": "application/json"}, method="POST")
urllib.request.urlopen(advance).close()

# The blob is <container>/<SUBSCRIPTION>/<y>/<M>/<d>/<H>/<guid>.json: an array of records.
blobs = BlobServiceClient.from_connection_string(STORAGE).get_container_client(container)
names = [b.name for b in blobs.list_blobs(name_starts_with="AUDIT/")]
assert len(names) == 1, names
records = json.loads(blobs.download_blob(names[0]).readall())
assert [r["id"] for r in records] == ["refused"], records
print("ok: delivered with-key and with-sas; %s dead-lettered (%s) to %s/%s" % (
    records[0]["id"], records[0]["deadLetterReason"], container, names[0]))
hook.shutdown()

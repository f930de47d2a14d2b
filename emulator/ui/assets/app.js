// GridBridge dashboard: a single page over the inspection API. Every view is
// built with DOM calls, never by parsing strings as HTML, so event data cannot inject markup;
// every mutation sends Content-Type: application/json, as the emulator's
// guard requires of state changes.

const API = "/_emulator";
const PAGE = 100;

const $ = (sel) => document.querySelector(sel);

// list and obj read what the API sent as a list or an object, taking null,
// a missing field or a value of another type as empty: a view renders
// whatever a newer or older emulator answers.
const list = (v) => (Array.isArray(v) ? v : []);
const obj = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : {});

// h builds an element: h("td", {class: "num"}, "3", otherNode).
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// put appends nodes to parent, leaving out the null of a condition not met
// (Element.append would show it as the text "null").
function put(parent, ...nodes) {
  parent.append(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

async function getJSON(path) {
  const res = await fetch(API + path, { headers: { Accept: "application/json" } });
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = { raw: text }; }
  if (!res.ok) {
    const msg = body && body.error ? (body.error.message || body.error) : res.statusText;
    const err = new Error(`${res.status} ${msg}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

async function send(method, path, body) {
  const res = await fetch(API + path, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? "{}" : JSON.stringify(body),
  });
  const text = await res.text();
  let out = null;
  try { out = text ? JSON.parse(text) : null; } catch { out = null; }
  if (!res.ok) throw new Error(`${res.status} ${out && out.error ? (out.error.message || out.error) : res.statusText}`);
  return out;
}

function say(text) {
  const s = $("#status");
  s.textContent = text;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { s.textContent = ""; }, 4000);
}

function fmtTime(t) {
  if (!t) return "";
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString().replace("T", " ").replace(/\.000Z$|Z$/, " UTC");
}
const badge = (text) => h("span", { class: `badge b-${text}` }, text);
const pretty = (v) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

// copy and download buttons for one record.
function recordActions(name, value) {
  const text = pretty(value);
  return h("span", { class: "toolbar" },
    h("button", { type: "button", class: "quiet", "data-action": "copy", onclick: async () => {
      try { await navigator.clipboard.writeText(text); say("Copied"); } catch { say("Copy is not allowed here; use Download"); }
    } }, `Copy ${name}`),
    h("button", { type: "button", class: "quiet", "data-action": "download", onclick: () => {
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      const a = h("a", { href: url, download: `${name.replace(/[^\w.-]+/g, "-")}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } }, `Download ${name}`));
}

// table renders rows of objects; columns are [key, heading, render?] or the
// union of the rows' keys, so fields added to an API show up unasked. It
// sits in a box that scrolls sideways: a wide table never widens the page.
function table(rows, columns, caption) {
  rows = list(rows).map(obj);
  if (!columns) {
    const keys = [];
    for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
    columns = keys.map((k) => [k, words(k)]);
  }
  const cell = (v) => (v !== null && typeof v === "object" ? breakable(JSON.stringify(v)) : typeof v === "string" ? breakable(v) : v);
  return h("div", { class: "table-box" }, h("table", {},
    caption ? h("caption", { class: "muted" }, caption) : null,
    h("thead", {}, h("tr", {}, columns.map(([k, title]) => h("th", { scope: "col", class: typeof rows[0]?.[k] === "number" ? "num" : null }, title)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, columns.map(([k, , render]) => {
      const v = render ? render(r) : cell(r[k]);
      return h("td", { class: typeof r[k] === "number" ? "num" : null }, v);
    }))))));
}

// breakable lets a long name (an ARN, a route, a URL) wrap after its
// separators, so its column can be narrower than the whole name.
function breakable(text) {
  const s = String(text);
  if (s.length < 24) return s;
  const out = [];
  s.split(/(?<=[/:,])/).forEach((part, i) => { if (i) out.push(h("wbr")); out.push(part); });
  return out;
}

// words spells an API field name as a heading that can wrap:
// "awaitingDeadLetter" becomes "awaiting dead letter".
const words = (k) => String(k).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

// ---- views -------------------------------------------------------------

const ROUTE_KEYS = ["namespace", "topic", "subscription", "bus", "rule", "target", "subscriber", "pipe", "step"];
const routeName = (labels) => ROUTE_KEYS.map((k) => labels?.[k]).filter(Boolean).join("/");

async function viewResources(main) {
  const { sqsEndpoint } = obj(await info);
  const [m, sqs, subs, egTopics] = await Promise.all([
    getJSON("/metrics"),
    // With --sqs-endpoint the queues live on that server, and /sqs answers 409.
    sqsEndpoint ? null : getJSON("/sqs").catch(() => null),
    getJSON("/eventbridge/subscribers").catch(() => null),
    getJSON("/eventgrid/topics").catch(() => null),
  ]);
  const metrics = obj(m);
  put(main, h("h2", {}, "Resources"));
  const j = obj(metrics.journal);
  put(main, h("ul", { class: "cards", "aria-label": "Journal" },
    Object.entries(obj(j.counts)).sort().map(([k, v]) => h("li", {}, h("b", {}, v), k)),
    h("li", {}, h("b", {}, `${j.held ?? 0} / ${j.capacity ?? 0}`), "journal held"),
    h("li", {}, h("b", {}, j.discarded ?? 0), "discarded")));

  const topics = list(obj(egTopics).topics).map(obj);
  if (topics.length) {
    put(main, h("h3", {}, "Event Grid topics"), table(topics, [
      ["name", "topic", (t) => h("span", { title: t.id }, t.name)],
      ["inputSchema", "input schema"],
      ["createdAt", "created", (t) => fmtTime(t.createdAt)],
      ["subscriptions", "event subscriptions", (t) => (list(t.subscriptions).length ? list(t.subscriptions).map(obj).map((s) => h("div", {},
        `${s.name} `, badge(s.provisioningState), ` ${s.endpointType || ""} `,
        s.endpointBaseUrl ? h("span", { class: "mono" }, s.endpointBaseUrl) : null,
        s.deadLetter ? h("span", { class: "muted" }, " · dead-letters") : null)) : h("span", { class: "muted" }, "none"))],
    ]));
  }

  const routes = list(metrics.routes).map(obj);
  const clouds = new Map();
  for (const r of routes) {
    const l = obj(r.labels);
    const cloud = l.cloud || "other";
    const parent = l.bus ? `bus ${l.bus}` : l.namespace ? `namespace ${l.namespace} / topic ${l.topic}` : l.topic ? `topic ${l.topic}` : "";
    if (!clouds.has(cloud)) clouds.set(cloud, new Map());
    const groups = clouds.get(cloud);
    if (!groups.has(parent)) groups.set(parent, []);
    groups.get(parent).push(r);
  }
  if (routes.length === 0) put(main, h("p", { class: "muted" }, "No routes yet: create a subscription, rule target or subscriber."));
  const routeColumn = ["route", "route", (r) => h("span", { title: r.route }, breakable(routeName(r.labels) || r.route || ""))];
  for (const [cloud, groups] of clouds) {
    put(main, h("h3", {}, cloud === "eventgrid" ? "Event Grid" : cloud === "eventbridge" ? "EventBridge" : cloud));
    for (const [parent, rs] of groups) {
      put(main, h("section", { class: "group", "aria-label": parent || cloud },
        parent ? h("h4", {}, parent) : null,
        counters(rs, [
          routeColumn,
          ["state", "state", (r) => h("span", {}, badge(r.state), r.heldUntil ? h("span", { class: "muted" }, ` until ${fmtTime(r.heldUntil)}`) : null)],
          ["invariant", "accounted for", (r) => invariant(r)],
        ])));
    }
  }
  // Other top-level sections of /metrics (added by other parts of the
  // emulator) render as they come: counters by route, or as JSON.
  for (const [k, v] of Object.entries(metrics)) {
    if (k === "journal" || k === "routes" || v === null || v === undefined) continue;
    put(main, h("h3", {}, SECTIONS[k] || words(k)));
    const columns = k === "pipes"
      ? [routeColumn, ["state", "state", (r) => badge(r.state)], ["invariant", "accounted for", (r) => pipeInvariant(r)]]
      : [routeColumn];
    if (Array.isArray(v)) put(main, v.length ? counters(v.map(obj), columns) : h("p", { class: "muted" }, "None yet."));
    else put(main, h("pre", {}, pretty(v)));
  }
  const subscribers = list(obj(subs).subscribers).map(obj);
  if (subscribers.length) {
    put(main, h("h3", {}, "EventBridge bus-v2 subscribers"), counters(subscribers, [
      ["subscriber", "subscriber", (s) => h("span", { title: s.subscriberArn || "" }, s.subscriber || breakable(s.subscriberArn || ""))],
    ]));
  }
  if (sqsEndpoint) {
    put(main, h("h3", {}, "SQS queues"), h("p", { class: "muted" }, "SQS targets and dead-letter queues go to ", h("span", { class: "mono" }, sqsEndpoint), "; read them with the SQS SDK."));
  } else if (sqs) {
    const queues = list(obj(sqs).queues);
    put(main, h("h3", {}, "SQS queues (in-memory)"));
    put(main, queues.length ? table(queues) : h("p", { class: "muted" }, "No messages sent to SQS yet."));
  }
}

// counters is a table of rows of counters: the columns given, then one for
// each field that is a number in any row (the counters an emulator
// reports, whatever they are).
function counters(rows, columns) {
  const numeric = [];
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (typeof v === "number" && !numeric.includes(k)) numeric.push(k);
  return table(rows, [...columns, ...numeric.map((k) => [k, words(k)])]);
}

// SECTIONS names the other sections of /metrics the page knows.
const SECTIONS = { queues: "Event Grid namespace queue subscriptions", pipes: "EventBridge Pipes" };

// pipeInvariant: every message a pipe received is delivered, filtered,
// dead-lettered (by its queue's redrive policy) or dropped, or is still
// batching, in flight or back in its queue awaiting a retry.
function pipeInvariant(r) {
  const n = (k) => Number(r[k]) || 0;
  return h("span", { class: "invariant" },
    `${n("received")} received = ${n("delivered")} delivered + ${n("filtered")} filtered + ${n("deadLettered")} dead-lettered + ${n("dropped")} dropped`
    + ` + ${n("batching") + n("inFlight") + n("awaitingRetry")} pending`);
}

// invariant: every queued event is delivered, dead-lettered, dropped or still
// pending (queued, retrying, in flight or awaiting its dead letter). The
// dead letters that could not be written are part of dropped.
function invariant(r) {
  const n = (k) => Number(r[k]) || 0;
  const open = Math.max(0, n("queued") - n("delivered") - n("deadLettered") - n("dropped"));
  return h("span", { class: "invariant" },
    `${n("queued")} queued = ${n("delivered")} delivered + ${n("deadLettered")} dead-lettered + ${n("dropped")} dropped`
    + (n("deadLetterFailed") ? ` (${n("deadLetterFailed")} of them dead-letter failed)` : "") + ` + ${open} pending`);
}

const eventsState = { q: "", outcome: "", offset: 0 };

async function viewEvents(main) {
  const s = eventsState;
  const params = new URLSearchParams({ offset: s.offset, limit: PAGE });
  if (s.q) params.set("q", s.q);
  if (s.outcome) params.set("outcome", s.outcome);
  const page = obj(await getJSON(`/ui/api/events?${params}`));
  const events = list(page.events).map(obj);
  const search = h("input", { type: "search", id: "event-search", value: s.q, placeholder: "id, type, source, route…" });
  search.addEventListener("input", () => {
    clearTimeout(search.timer);
    search.timer = setTimeout(() => { s.q = search.value; s.offset = 0; render({ keepFocus: "#event-search" }); }, 250);
  });
  const outcome = h("select", { id: "event-outcome", onchange: (e) => { s.outcome = e.target.value; s.offset = 0; render({ keepFocus: "#event-outcome" }); } },
    ["", "delivered", "retrying", "pending", "held", "dead-lettered", "dropped", "unmatched"].map((o) => h("option", { value: o, selected: o === s.outcome }, o || "any outcome")));
  put(main, h("h2", {}, "Events"),
    h("div", { class: "toolbar", role: "search" },
      h("label", { for: "event-search" }, "Search"), search,
      h("label", { for: "event-outcome" }, "Outcome"), outcome),
    pager(page, s),
    events.length === 0 ? h("p", { class: "muted" }, s.q || s.outcome ? "No events match." : "No events yet: publish one, and it shows here.") :
      table(events, [
        ["time", "time", (e) => fmtTime(e.time)],
        ["id", "event id", (e) => h("a", { href: `#/events/${encodeURIComponent(e.id)}`, class: "mono" }, e.id)],
        ["type", "type / detail-type"],
        ["source", "source"],
        ["routes", "routes", (e) => (list(e.routes).length ? list(e.routes).map(obj).map((r) => h("div", {}, `${r.name || r.route || ""} `, badge(r.outcome)))
          : h("span", { class: "muted" }, "no route took it"))],
        ["attempts", "attempts"],
        ["outcome", "outcome", (e) => badge(e.outcome)],
      ]),
    page.discarded ? h("p", { class: "muted" }, `${page.discarded} older journal entries were discarded (the journal is bounded).`) : null);
}

function pager(page, s) {
  const total = Number(page.total) || 0;
  const from = total ? s.offset + 1 : 0;
  const to = Math.min(total, s.offset + PAGE);
  return h("div", { class: "pager" },
    h("button", { type: "button", class: "quiet", disabled: s.offset === 0, onclick: () => { s.offset = Math.max(0, s.offset - PAGE); render(); } }, "Newer"),
    h("span", {}, `${from}–${to} of ${total}`),
    h("button", { type: "button", class: "quiet", disabled: to >= total, onclick: () => { s.offset += PAGE; render(); } }, "Older"));
}

async function viewEvent(main, id) {
  const page = obj(await getJSON(`/journal?event=${encodeURIComponent(id)}`));
  const entries = list(page.entries).map(obj);
  put(main, h("p", {}, h("a", { href: "#/events" }, "← all events")),
    h("h2", {}, "Event ", h("span", { class: "mono" }, id)));
  if (!entries.length) {
    put(main, h("p", { class: "muted" }, "The journal holds nothing for this event (it may have been discarded)."));
    return;
  }
  const byRoute = new Map();
  for (const e of entries) {
    const key = e.route || "";
    if (!byRoute.has(key)) byRoute.set(key, []);
    byRoute.get(key).push(e);
  }
  for (const [route, es] of byRoute) {
    const name = route ? routeName(es[0].labels) || route : "published";
    put(main, h("h3", {}, route ? `Route ${name}` : "Accepted"));
    put(main, h("ol", { class: "timeline", "aria-label": `timeline of ${name}` }, es.map(timelineItem)));
    if (route) put(main, ending(es));
  }
}

function timelineItem(e) {
  const what = {
    publish: "accepted", attempt: `attempt ${e.attempt || ""}`, delivered: "delivered",
    deadletter: "dead-lettered", drop: "dropped", deferred: "deferred",
  }[e.kind] || e.kind;
  const outcomeClass = e.kind === "attempt" ? (e.status >= 200 && e.status < 300 ? "delivered" : "failed") : "";
  const li = h("li", { class: `k-${e.kind}` },
    h("div", {},
      h("span", { class: "when" }, fmtTime(e.time)),
      h("strong", {}, what), " ",
      e.status ? h("span", {}, `HTTP ${e.status} `) : null,
      e.outcome ? h("span", { class: `badge b-${outcomeClass || e.outcome}` }, e.outcome) : null,
      e.nextAttemptAt ? h("span", { class: "muted" }, ` next attempt ${fmtTime(e.nextAttemptAt)}`) : null),
    e.message ? h("div", { class: "muted" }, e.message) : null,
    e.destination ? h("div", {}, "destination ", h("span", { class: "mono" }, e.destination)) : null);
  if (e.request) {
    const req = obj(e.request);
    const hdrs = Object.entries(obj(req.headers)).map(([k, v]) => ({ header: k, value: [].concat(v ?? []).join(", ") }));
    li.append(h("details", {},
      h("summary", {}, `request ${req.method || ""} ${req.url || ""}`),
      hdrs.length ? table(hdrs, [["header", "header"], ["value", "value"]]) : null,
      req.body !== undefined && req.body !== null ? h("pre", {}, pretty(req.body)) : null));
  }
  if (e.kind === "deadletter" || e.kind === "drop") {
    li.append(h("details", { open: true }, h("summary", {}, "record"), h("pre", {}, pretty(e.body ?? e)), recordActions(`${e.kind}-${e.seq}`, e)));
  }
  return li;
}

function ending(es) {
  const last = [...es].reverse().find((e) => ["delivered", "deadletter", "drop"].includes(e.kind));
  if (!last) {
    const retry = [...es].reverse().find((e) => e.nextAttemptAt);
    return h("p", { class: "end badge b-retrying" }, retry ? `Retrying: next attempt ${fmtTime(retry.nextAttemptAt)}` : "Pending");
  }
  if (last.kind === "delivered") return h("p", { class: "end badge b-delivered" }, `Delivered at ${fmtTime(last.time)}`);
  if (last.kind === "deadletter") return h("p", { class: "end badge b-dead-lettered" }, `Dead-lettered to ${last.destination || "the dead-letter sink"} (${last.outcome || "no reason given"})`);
  return h("p", { class: "end badge b-dropped" }, `Dropped: ${last.outcome || ""} ${last.message || ""}`);
}

const recordState = { deadletter: { q: "", offset: 0 }, drop: { q: "", offset: 0 } };

async function viewRecords(main, kind) {
  const s = recordState[kind];
  const params = new URLSearchParams({ kind, offset: s.offset, limit: PAGE });
  if (s.q) params.set("q", s.q);
  const page = obj(await getJSON(`/ui/api/entries?${params}`));
  const entries = list(page.entries).map(obj);
  const id = `${kind}-search`;
  const search = h("input", { type: "search", id, value: s.q, placeholder: "event id, route, reason…" });
  search.addEventListener("input", () => {
    clearTimeout(search.timer);
    search.timer = setTimeout(() => { s.q = search.value; s.offset = 0; render({ keepFocus: `#${id}` }); }, 250);
  });
  put(main, h("h2", {}, kind === "deadletter" ? "Dead letters" : "Drops"),
    h("div", { class: "toolbar", role: "search" }, h("label", { for: id }, "Search"), search),
    pager(page, s));
  if (!entries.length) {
    put(main, h("p", { class: "muted" }, s.q ? "Nothing matches." : kind === "deadletter" ? "No dead letters." : "No drops."));
    return;
  }
  put(main, table(entries, [
    ["time", "time", (e) => fmtTime(e.time)],
    ["eventIds", "events", (e) => list(e.eventIds).map((id) => h("div", {}, h("a", { href: `#/events/${encodeURIComponent(id)}`, class: "mono" }, id)))],
    ["route", "route", (e) => routeName(e.labels) || e.route],
    // The reason is the entry's outcome (MaxDeliveryAttemptsExceeded,
    // TimeToLiveExceeded, ERROR_CODE's value …); a drop adds a message.
    ["outcome", "reason", (e) => h("span", {}, h("strong", {}, e.outcome || "no reason recorded"), e.message ? h("div", { class: "muted" }, e.message) : null)],
    ["destination", kind === "deadletter" ? "blob path or queue" : "", (e) => h("span", { class: "mono" }, e.destination || "")],
    ["record", "record", (e) => h("details", {}, h("summary", {}, "show"), h("pre", {}, pretty(e.body ?? e)), recordActions(`${kind}-${e.seq}`, e.body ?? e))],
  ]));
}

const STEPS = [["10s", "10 s"], ["1m", "1 min"], ["5m", "5 min"], ["1h", "1 h"], ["24h", "24 h"]];

async function viewClock(main) {
  const [c, t] = await Promise.all([getJSON("/clock"), getJSON("/ui/api/timers")]);
  const clock = obj(c), timers = obj(t);
  const next = list(timers.timers);
  put(main, h("h2", {}, "Clock"),
    h("p", {}, "Mode ", h("strong", {}, clock.mode), " · now ", h("strong", { id: "clock-now" }, fmtTime(clock.now))));
  if (clock.mode !== "virtual") {
    put(main, h("p", { class: "muted" }, "A real clock moves on its own; start the emulator with --clock virtual to drive it from here."));
    return;
  }
  const advance = async (body, label) => {
    try {
      const c = await send("POST", "/clock/advance", body);
      say(`Advanced ${label}: now ${fmtTime(c.now)}`);
    } catch (err) { say(`Advance failed: ${err.message}`); }
    render({ keepFocus: document.activeElement?.id ? `#${document.activeElement.id}` : null });
  };
  put(main, h("div", { class: "toolbar", role: "group", "aria-label": "Advance the clock" },
    STEPS.map(([by, label]) => h("button", { type: "button", id: `advance-${by}`, onclick: () => advance({ by }, label) }, `Advance ${label}`)),
    h("button", { type: "button", id: "advance-next", disabled: !clock.nextTimerAt, onclick: () => advance({ to: clock.nextTimerAt }, "to the next timer") }, "Advance to the next timer")));
  put(main, h("h3", {}, `Next timers (${timers.pending ?? 0} pending)`));
  if (!next.length) put(main, h("p", { class: "muted" }, "No timers: nothing is waiting for the clock."));
  else {
    const now = new Date(clock.now).getTime();
    const inSeconds = (at) => Math.round((new Date(at).getTime() - now) / 1000);
    put(main, table(next.map((at) => ({ at, in: Number.isFinite(inSeconds(at)) ? `+${inSeconds(at)} s` : "" })), [["at", "fires at", (r) => fmtTime(r.at)], ["in", "in"]]));
  }
}

// viewAPIFaults lists the API faults (calls answered with an injected
// error, GET /_emulator/api-faults) with a form to add one.
async function viewAPIFaults(main) {
  const faults = list(obj(await getJSON("/api-faults")).faults).map(obj);
  put(main, h("h2", {}, "API faults"));
  put(main, faults.length ? table(faults, [
    ["id", "id"],
    ["service", "service"],
    ["operation", "operation", (f) => f.operation || "every operation"],
    ["error", "error"],
    ["status", "status"],
    ["count", "left", (f) => (f.count ? `${f.count - f.used} of ${f.count}` : "forever")],
    ["used", "used"],
    ["remove", "", (f) => h("button", { type: "button", class: "quiet", id: `remove-${f.id}`, onclick: async () => {
      try { await send("DELETE", `/api-faults/${encodeURIComponent(f.id)}`); say(`Removed API fault ${f.id}`); } catch (err) { say(err.message); }
      render();
    } }, `Remove API fault ${f.id}`)],
  ]) : h("p", { class: "muted" }, "No API faults: every call is served."));

  const count = h("input", { type: "number", id: "apifault-count", min: "0", value: "1", size: "4" });
  const service = h("select", { id: "apifault-service" }, ["events", "sqs", "scheduler", "pipes", "arm", "eventgrid"].map((k) => h("option", { value: k }, k)));
  const operation = h("input", { type: "text", id: "apifault-operation", placeholder: "e.g. PutEvents, PUT topics" });
  const error = h("input", { type: "text", id: "apifault-error", placeholder: "e.g. ThrottlingException" });
  const status = h("input", { type: "number", id: "apifault-status", min: "400", max: "599", placeholder: "default", size: "6" });
  const form = h("form", { class: "toolbar", "aria-label": "Add an API fault" },
    h("label", { for: "apifault-count" }, "Fail the next"), count,
    h("label", { for: "apifault-service" }, "calls (0 = forever) to"), service,
    h("label", { for: "apifault-operation" }, "operation"), operation,
    h("label", { for: "apifault-error" }, "with error"), error,
    h("label", { for: "apifault-status" }, "status"), status,
    h("button", { type: "submit", id: "apifault-add" }, "Add API fault"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const rule = { service: service.value, count: Number(count.value || 0) };
    if (operation.value) rule.operation = operation.value;
    if (error.value) rule.error = error.value;
    if (status.value) rule.status = Number(status.value);
    try { const f = await send("POST", "/api-faults", rule); say(`Added API fault ${f.id}`); } catch (err) { say(err.message); }
    render();
  });
  put(main, h("h3", {}, "Add an API fault"), form);
  if (faults.length) {
    put(main, h("button", { type: "button", class: "quiet", onclick: async () => { await send("DELETE", "/api-faults"); say("Removed every API fault"); render(); } }, "Remove every API fault"));
  }
}

async function viewFaults(main) {
  const faults = list(obj(await getJSON("/faults")).faults).map(obj);
  put(main, h("h2", {}, "Faults"));
  put(main, faults.length ? table(faults, [
    ["id", "id"],
    ["match", "matches", (f) => (f.route ? `route ${f.route}` : Object.entries(obj(f.match)).map(([k, v]) => `${k} ${v}`).join(", ") || "every route")],
    ["status", "status"],
    ["outcome", "outcome"],
    ["count", "left", (f) => (f.count ? `${f.count - f.used} of ${f.count}` : "forever")],
    ["used", "used"],
    ["remove", "", (f) => h("button", { type: "button", class: "quiet", id: `remove-${f.id}`, onclick: async () => {
      try { await send("DELETE", `/faults/${encodeURIComponent(f.id)}`); say(`Removed fault ${f.id}`); } catch (err) { say(err.message); }
      render();
    } }, `Remove fault ${f.id}`)],
  ]) : h("p", { class: "muted" }, "No fault rules."));

  const count = h("input", { type: "number", id: "fault-count", min: "0", value: "3", size: "4" });
  const keys = ["subscription", ...ROUTE_KEYS.filter((k) => k !== "subscription"), "route"];
  const key = h("select", { id: "fault-key" }, keys.map((k) => h("option", { value: k }, k)));
  const value = h("input", { type: "text", id: "fault-value", required: true, placeholder: "name" });
  const status = h("input", { type: "number", id: "fault-status", min: "100", max: "599", value: "503", size: "4" });
  const outcome = h("input", { type: "text", id: "fault-outcome", placeholder: "e.g. Busy (optional)" });
  const form = h("form", { class: "toolbar", "aria-label": "Add a fault" },
    h("label", { for: "fault-count" }, "Fail the next"), count,
    h("label", { for: "fault-key" }, "attempts (0 = forever) to"), key,
    h("label", { for: "fault-value" }, "named"), value,
    h("label", { for: "fault-status" }, "with status"), status,
    h("label", { for: "fault-outcome" }, "outcome"), outcome,
    h("button", { type: "submit" }, "Add fault"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const rule = { count: Number(count.value || 0), status: Number(status.value || 0) };
    if (outcome.value) rule.outcome = outcome.value;
    if (key.value === "route") rule.route = value.value; else rule.match = { [key.value]: value.value };
    try { const f = await send("POST", "/faults", rule); say(`Added fault ${f.id}`); } catch (err) { say(err.message); }
    render();
  });
  put(main, h("h3", {}, "Add a fault"), form);
  if (faults.length) {
    put(main, h("button", { type: "button", class: "quiet", onclick: async () => { await send("DELETE", "/faults"); say("Removed every fault"); render(); } }, "Remove every fault"));
  }

  await viewAPIFaults(main);

  put(main, h("h3", {}, "Reset"));
  const box = h("div", {});
  const ask = h("button", { type: "button", class: "danger", onclick: () => {
    box.replaceChildren(h("div", { class: "confirm", role: "alertdialog", "aria-label": "Confirm reset" },
      h("p", {}, "Forget every resource, queued event, fault and journal entry?"),
      h("button", { type: "button", class: "danger", id: "reset-yes", onclick: async () => {
        try { await send("POST", "/reset"); say("Reset"); } catch (err) { say(err.message); }
        render();
      } }, "Yes, reset everything"), " ",
      h("button", { type: "button", class: "quiet", onclick: () => { box.replaceChildren(ask); ask.focus(); } }, "Cancel")));
    $("#reset-yes").focus();
  } }, "Reset the emulator…");
  box.append(ask);
  put(main, box);
}

// ---- routing, header and the live feed ----------------------------------

function currentView() {
  const parts = (location.hash || "#/resources").slice(2).split("/");
  const decode = (p) => { try { return decodeURIComponent(p); } catch { return p; } };
  return { name: parts[0] || "resources", arg: parts.slice(1).map(decode).join("/") };
}

let rendering = Promise.resolve();

// pressing is true while a pointer button is down on the page.
let pressing = false;
document.addEventListener("pointerdown", () => { pressing = true; }, true);
document.addEventListener("pointerup", () => { pressing = false; }, true);
document.addEventListener("pointercancel", () => { pressing = false; }, true);

// render rebuilds the current view off-screen and swaps it in, so a refresh
// never shows a half-built page; focus returns to the control that had it.
function render(opts = {}) {
  rendering = rendering.then(() => renderNow(opts)).catch(() => {});
  return rendering;
}

async function renderNow({ keepFocus, live } = {}) {
  const { name, arg } = currentView();
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.view === name) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const next = h("div", {});
  const openDetails = [...document.querySelectorAll("main details[open]")].map((d) => d.querySelector("summary")?.textContent);
  const scrollY = window.scrollY;
  try {
    if (name === "resources") await viewResources(next);
    else if (name === "events" && arg) await viewEvent(next, arg);
    else if (name === "events") await viewEvents(next);
    else if (name === "deadletters") await viewRecords(next, "deadletter");
    else if (name === "drops") await viewRecords(next, "drop");
    else if (name === "clock") await viewClock(next);
    else if (name === "faults") await viewFaults(next);
    else next.append(h("h2", {}, "Not found"), h("p", {}, h("a", { href: "#/resources" }, "Go to resources")));
  } catch (err) {
    next.append(h("h2", {}, "Could not load this view"), h("p", {}, err.message));
  }
  const main = $("#main");
  if (live && (pressing || main.querySelector(".confirm"))) {
    // A button is being pressed, or a question is waiting for the user
    // (reset?): a live refresh must not swap it from under their pointer —
    // a press and release on two different nodes is no click. The next
    // refresh after it applies.
    await refreshClock();
    return;
  }
  const focusSel = keepFocus === undefined ? null : keepFocus;
  main.replaceChildren(...next.childNodes);
  for (const d of main.querySelectorAll("details")) {
    if (openDetails.includes(d.querySelector("summary")?.textContent)) d.open = true;
  }
  window.scrollTo(0, scrollY);
  if (focusSel) {
    const el = main.querySelector(focusSel);
    if (el) { el.focus(); if (el.setSelectionRange && el.type !== "number") el.setSelectionRange(el.value.length, el.value.length); }
  }
  await refreshClock();
  document.body.dataset.ready = `${name}${arg ? "/" + arg : ""}`;
}

async function refreshClock() {
  try {
    const c = obj(await getJSON("/clock"));
    $("#clock").textContent = `${c.mode || "unknown"} clock · ${fmtTime(c.now)}`;
  } catch (err) {
    $("#clock").textContent = `clock unavailable (${err.message})`;
  }
}

// live polls the dashboard's change feed and re-renders when the journal
// grows (and every 25 s, which also catches clock and resource changes).
async function live() {
  let last = 0;
  try {
    last = Number(obj(await getJSON("/ui/api/changes?after=0&wait=0s")).lastSeq) || 0;
    // Connected: the long poll below may wait 25 s for the next change.
    $("#live").textContent = "live";
  } catch { /* the loop reports it */ }
  for (;;) {
    try {
      const r = obj(await getJSON(`/ui/api/changes?after=${last}&wait=25s`));
      $("#live").textContent = "live";
      const seq = Number(r.lastSeq) || 0;
      const changed = seq !== last;
      last = seq;
      const active = document.activeElement;
      const typing = active && (active.tagName === "INPUT" || active.tagName === "SELECT") && active.closest("form");
      if (changed && !typing) {
        await render({ keepFocus: active && active.id ? `#${active.id}` : null, live: true });
        // A busy emulator changes all the time: refresh at most once a second.
        await new Promise((r) => setTimeout(r, 1000));
      } else await refreshClock();
    } catch (err) {
      $("#live").textContent = "offline, retrying…";
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// info is how this emulator is configured (GET /_emulator/info), read once.
const info = getJSON("/info").catch(() => ({}));

window.addEventListener("hashchange", () => { render().then(() => $("#main").focus({ preventScroll: true })); });
render();
live();

/**
 * Every operation of the three OpenAPI documents, driven from the documents
 * themselves (not the route table): values each document allows must not be
 * refused (400, 415, 422), values it forbids must be refused, every answer's
 * status must be one the operation documents, and nothing answers 5xx but
 * the spec's bare 500 of attestation `/init` for an invalid key. Seeded
 * (PALISADE_FUZZ_SEED replays a run) and bounded: a few cases per operation.
 * Path parameters name resources made afresh before each operation, so one
 * operation's cases (a revoke, a delete) do not decide another's answers; a
 * query parameter naming a resource (attestation `/init`'s `site_key`) is
 * filled the same way in the cases the document allows.
 */
import { assertEquals } from "../assert.ts";
import { fuzzSeed, rng } from "../dns/fuzz_mutations.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { openSocket, startTestServer } from "../helpers/test_server.ts";
import { negatives, positive, type Rng, type Schema, withBranch } from "./openapi_values.ts";

const POSITIVE = 4;
const NEGATIVE = 5;
const REFUSALS = [400, 415, 422];

interface Op {
  path: string;
  method: string;
  parameters: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}

interface Case {
  kind: "positive" | "negative";
  query: Record<string, string>;
  body?: { type: string; data: string };
  what: string;
}

type Send = (method: string, path: string, json?: unknown) => Promise<Record<string, unknown>>;

function client(base: string, credential: Record<string, string>): Send {
  return async (method, path, json) => {
    const headers: Record<string, string> = { ...credential };
    if (json !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 404) {
      throw new Error(`set-up ${method} ${path}: ${res.status} ${text}`);
    }
    return text ? JSON.parse(text) : {};
  };
}

/**
 * Fresh admin resources: an interface with one peer, a route through it, a
 * firewall rule, a spare token (made with a session: tokens do not make
 * tokens), the endpoint settings.
 */
async function adminFixtures(send: Send, session: Send): Promise<Record<string, string>> {
  // Routes and rules first: an interface they use cannot be deleted.
  const { routes } = await send("GET", "/api/v1/routes") as { routes: { id: string }[] };
  for (const r of routes) await send("DELETE", `/api/v1/routes/${r.id}`);
  const { rules } = await send("GET", "/api/v1/firewall/rules") as { rules: { id: string }[] };
  for (const r of rules) await send("DELETE", `/api/v1/firewall/rules/${r.id}`);
  const { interfaces } = await send("GET", "/api/v1/interfaces") as {
    interfaces: { id: string }[];
  };
  for (const i of interfaces) await send("DELETE", `/api/v1/interfaces/${i.id}`);
  const iface = await send("POST", "/api/v1/interfaces", {
    name: "fz0",
    address_v4: "10.8.0.1/24",
    listen_port: 51900,
  });
  const peer = await send("POST", `/api/v1/interfaces/${iface.id}/peers`, { name: "fuzz-peer" });
  const bare = await send("POST", "/api/v1/interfaces", { name: "fz1", address_v4: "10.7.0.1/24" });
  const networks = await networkFixtures(send, iface.id as string);
  const route = await send("POST", "/api/v1/routes", {
    destination: "10.60.0.0/24",
    gateway: "10.8.0.3",
  });
  const rule = await send("POST", "/api/v1/firewall/rules", {
    name: "fuzz-rule",
    protocol: "tcp",
    port: 22,
    action: "accept",
  });
  const settings = {
    "wireguard.server_host": "vpn.example.com",
    "wireguard.server_port": 51820,
    "wireguard.server_endpoint_enabled": true,
    // A fuzzed PUT may have required two-factor sign-in for a role; the fixtures sign in without.
    "auth.two_factor_roles": "",
  };
  for (const [key, value] of Object.entries(settings)) {
    await send("PUT", "/api/v1/system/settings", { key, value });
  }
  const token = await session("POST", "/api/v1/auth/tokens", { name: "spare", expires_in_days: 1 });
  const { sites } = await send("GET", "/api/v1/attest/sites") as { sites: { id: string }[] };
  for (const s of sites) await send("DELETE", `/api/v1/attest/sites/${s.id}`);
  const site = await send("POST", "/api/v1/attest/sites", {
    name: "fz-site",
    origins: ["https://fz.example"],
  });
  return {
    interfaces: iface.id as string,
    // An operation on an interface itself names one without peers: a new block
    // that would leave a peer out is refused (422) for the state, not the input.
    "/api/v1/interfaces/{id}": bare.id as string,
    peers: peer.id as string,
    routes: route.id as string,
    rules: rule.id as string,
    tokens: (token.meta as { id: string }).id,
    diagnostics: "database",
    sites: site.id as string,
    ...networks,
    ...CURSORS,
  };
}

/**
 * A cursor names a position the server handed out (docs/api.md,
 * "Pagination"): no document can list the valid ones, so the cases it allows
 * take the empty cursor, the first page.
 */
const CURSORS = { "?cursor": "", "?keys_cursor": "" };

/**
 * The fixture interface's network (the examples of `after` lie in its block)
 * and, for the member route, a free pool: a network an interface uses cannot
 * be deleted. Pools left by earlier operations go first.
 */
async function networkFixtures(send: Send, interfaceId: string): Promise<Record<string, string>> {
  type Net = { id: string; interface_id: string | null };
  const { networks } = await send("GET", "/api/v1/networks") as { networks: Net[] };
  for (const n of networks.filter((n) => n.interface_id === null)) {
    await send("DELETE", `/api/v1/networks/${n.id}`);
  }
  const pool = await send("POST", "/api/v1/networks", { name: "fz-pool", cidr: "10.6.0.0/24" });
  return {
    networks: networks.find((n) => n.interface_id === interfaceId)!.id,
    "/api/v1/networks/{id}": pool.id as string,
  };
}

/** A fresh zone example.com (the documents' examples are written for it) with a TXT record. */
async function dnsFixtures(send: Send): Promise<Record<string, string>> {
  await send("DELETE", "/api/v1/zones/example.com");
  await send("POST", "/api/v1/zones", {
    name: "example.com",
    admin_email: "hostmaster@example.com",
  });
  const record = await send("POST", "/api/v1/zones/example.com/records", {
    domain: "txt.example.com",
    type: "TXT",
    value: "fixture",
  });
  return { zones: "example.com", records: record.id as string, ...CURSORS };
}

/**
 * The path with each `{param}` replaced by the resource named by the segment
 * before it; a resource listed under the whole path takes its last parameter.
 */
function fillPath(path: string, resources: Record<string, string>): string {
  const filled = path.replace(
    /([^/]+)\/\{[^}]+\}/g,
    (_, seg: string) => `${seg}/${resources[seg]}`,
  );
  return resources[path] ? filled.replace(/[^/]+$/, resources[path]) : filled;
}

function encode(type: string, value: unknown): string {
  return type.includes("json") ? JSON.stringify(value) : String(value);
}

/** `resources["?name"]` is the value of query parameter `name` when it names a resource. */
function positiveCase(op: Op, r: Rng, resources: Record<string, string>): Case {
  const query: Record<string, string> = {};
  for (const p of op.parameters.filter((p) => p.in === "query")) {
    if (p.required || r(2) === 0) {
      query[p.name] = resources[`?${p.name}`] ?? String(positive(p.schema, r));
    }
  }
  const c: Case = { kind: "positive", query, what: "" };
  const content = op.requestBody?.content;
  if (content) {
    const type = Object.keys(content)[r(Object.keys(content).length)];
    c.body = { type, data: encode(type, positive(content[type].schema, r)) };
  }
  c.what = `query ${JSON.stringify(query)} body ${c.body?.data.slice(0, 300)}`;
  return c;
}

/** Cases that each break one rule of the document: a parameter, a body field, the body itself. */
function negativeCases(op: Op, r: Rng, resources: Record<string, string>): Case[] {
  const base = positiveCase(op, r, resources);
  const out: Case[] = [];
  const add = (what: string, query: Record<string, string>, body?: Case["body"]) =>
    out.push({ kind: "negative", query, body, what });
  for (const p of op.parameters.filter((p) => p.in === "query")) {
    for (const v of negatives(p.schema, true)) {
      add(`${p.name}=${v}`, { ...base.query, [p.name]: String(v) }, base.body);
    }
  }
  for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
    const s = withBranch(schema, r);
    const whole = (what: string, v: unknown) =>
      add(what, base.query, { type, data: encode(type, v) });
    if (s.type !== "object") {
      for (const v of negatives(s)) whole(`${type} body ${JSON.stringify(v)}`, v);
      continue;
    }
    const good = positive(s, r) as Record<string, unknown>;
    for (const [k, ps] of Object.entries(s.properties as Record<string, Schema>)) {
      for (const v of negatives(ps)) {
        whole(`${k}: ${JSON.stringify(v)?.slice(0, 80)}`, { ...good, [k]: v });
      }
    }
    for (const k of s.required ?? []) {
      const { [k]: _, ...rest } = good;
      whole(`without ${k}`, rest);
    }
    if (s.additionalProperties === false) whole("unknown field", { ...good, zz_unknown: 1 });
    if (s.minProperties) whole("no field", {});
    whole("an array", []);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = r(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.slice(0, NEGATIVE);
}

interface Target {
  name: string;
  base: string;
  doc: string;
  auth?: string;
  fixtures?: (send: Send) => Promise<Record<string, string>>;
}

async function send(t: Target, op: Op, url: string, c: Case): Promise<Response> {
  const headers: Record<string, string> = t.auth ? { Authorization: t.auth } : {};
  if (c.body) headers["Content-Type"] = c.body.type;
  const qs = new URLSearchParams(c.query).toString();
  return await fetch(`${t.base}${url}${qs ? `?${qs}` : ""}`, {
    method: op.method.toUpperCase(),
    headers,
    body: c.body?.data,
  });
}

/** How many answers of each kind of case had each status, for the log. */
type Tally = Record<string, number>;

/** Runs one operation's cases; returns what went against the document. */
async function runOperation(t: Target, op: Op, r: Rng, tally: Tally): Promise<string[]> {
  const credential: Record<string, string> = t.auth ? { Authorization: t.auth } : {};
  const resources = t.fixtures ? await t.fixtures(client(t.base, credential)) : {};
  const url = fillPath(op.path, resources);
  const name = `${t.name} ${op.method.toUpperCase()} ${op.path}`;
  const failures: string[] = [];
  if (op.responses["101"]) {
    const ws = await openSocket(`${t.base.replace("http", "ws")}${url}`, { Authorization: t.auth! })
      .catch((e) => e as Error);
    if (ws instanceof Error) failures.push(`${name}: WebSocket upgrade failed: ${ws.message}`);
    else ws.close();
  }
  const cases = [
    ...Array.from({ length: POSITIVE }, () => positiveCase(op, r, resources)),
    ...negativeCases(op, r, resources),
  ];
  if (op.responses["101"]) {
    cases.splice(0, POSITIVE, { kind: "negative", query: {}, what: "plain GET" });
  }
  for (const c of cases) {
    const res = await send(t, op, url, c);
    const text = await res.text();
    const s = res.status;
    tally[`${c.kind} ${s}`] = (tally[`${c.kind} ${s}`] ?? 0) + 1;
    const bareInit = t.name === "attest" && op.path === "/init" && s === 500;
    const wrong = !(String(s) in op.responses)
      ? "an undocumented status"
      : s >= 500 && !bareInit
      ? "a server error"
      : c.kind === "positive" && REFUSALS.includes(s)
      ? "a refusal of what the document allows"
      : c.kind === "negative" && s < 400
      ? "an acceptance of what the document forbids"
      : null;
    if (wrong) {
      failures.push(`${name} (${c.kind}, ${c.what}): ${wrong}: ${s} ${text.slice(0, 300)}`);
    }
  }
  return failures;
}

Deno.test("every operation of the three OpenAPI documents answers as its document says", async () => {
  const seed = fuzzSeed("openapi fuzz");
  const r = rng(seed);
  await using t = await startTestServer();
  const token = await t.createToken("fuzz", 1);
  const jwt = (await dnsApi(t)).token;
  const session = client(t.admin, { cookie: await t.login(), Origin: t.admin });
  let sites = 0;
  // A registered site's key; an unknown one is refused (400) for the state, not the input.
  const attestSite = () =>
    t.services.attestSites.create(
      { name: `fz-attest-${++sites}`, origins: ["https://fz.example"] },
      "fuzz",
    );
  const targets: Target[] = [
    {
      name: "admin",
      base: t.admin,
      doc: "/api/v1/openapi.json",
      auth: `Bearer ${token}`,
      fixtures: (send) => adminFixtures(send, session),
    },
    {
      name: "dns",
      base: t.dnsApi,
      doc: "/api/v1/openapi.json",
      auth: `Bearer ${jwt}`,
      fixtures: dnsFixtures,
    },
    {
      name: "attest",
      base: t.attest,
      doc: "/openapi.json",
      fixtures: async () => ({ "?site_key": (await attestSite()).site_key }),
    },
  ];
  const failures: string[] = [];
  const tally: Tally = {};
  let operations = 0;
  for (const target of targets) {
    const doc = await (await fetch(`${target.base}${target.doc}`)).json();
    const ops: Op[] = Object.entries(doc.paths as Record<string, Record<string, Op>>)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ ...op, path, method }))
      );
    // Failed logins throttle the address: they go last, after every other operation.
    ops.sort((a, b) => Number(a.path.endsWith("/login")) - Number(b.path.endsWith("/login")));
    for (const op of ops) failures.push(...await runOperation(target, op, r, tally));
    operations += ops.length;
  }
  console.log(`openapi fuzz: ${operations} operations, seed ${seed}, answers`, tally);
  assertEquals(failures, [], `seed ${seed}`);
});

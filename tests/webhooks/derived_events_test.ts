/**
 * Webhook event types derived from the bus (docs/webhooks.md, "Events"):
 * failed sign-ins reaching the threshold send one `auth.login_failures`; a
 * recent handshake sends `peer.connected` and its ageing past the disconnect
 * age `peer.disconnected`; an event relayed from another instance is not
 * delivered here; a disabled subscription gets nothing.
 */
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { call, startTestServer } from "../helpers/test_server.ts";
import { startReceiver } from "./receiver.ts";

const types = (bodies: { body: string }[]) => bodies.map((r) => JSON.parse(r.body).type);

Deno.test("webhooks: three failed sign-ins send one auth.login_failures; a relayed event is skipped; a disabled webhook gets nothing", async () => {
  await using receiver = startReceiver(200);
  await using quiet = startReceiver(200);
  await using t = await startTestServer({
    env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true", PALISADE_WEBHOOK_LOGIN_FAILURES: "3" },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const events = ["auth.login_failures", "zone.changed"];
  assertEquals((await api.post("/webhooks", { url: receiver.url, events })).status, 201);
  const off = await api.post("/webhooks", { url: quiet.url, events, enabled: false });
  assertEquals(off.status, 201);

  // Relayed from another instance: that instance delivers it, not this one.
  t.services.events.emit("ZoneChanged", { zone: "a.example", action: "created", serial: 1 }, "i2");
  for (let i = 0; i < 3; i++) {
    const res = await call(`${t.admin}/api/v1/auth/login`, {
      method: "POST",
      json: { username: "admin", password: `wrong password ${i}` },
    });
    assertEquals(res.status, 401);
  }
  await receiver.waitFor(1);
  await new Promise((r) => setTimeout(r, 300));
  assertEquals(types(receiver.requests), ["auth.login_failures"]);
  const data = JSON.parse(receiver.requests[0].body).data;
  assertEquals([data.failures, data.threshold], [3, 3]);
  assertEquals(data.user_ids.length, 1, "the one known user named by id");
  assertEquals(quiet.requests.length, 0);
});

Deno.test("webhooks: a recent handshake sends peer.connected, and once older than the disconnect age peer.disconnected", async () => {
  await using receiver = startReceiver(200);
  await using t = await startTestServer({
    env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true", PALISADE_WEBHOOK_PEER_DISCONNECTED_MS: "10000" },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const events = ["peer.connected", "peer.disconnected"];
  assertEquals((await api.post("/webhooks", { url: receiver.url, events })).status, 201);
  const handshake = {
    id: "peer-1",
    interface_id: "if-1",
    public_key: "pk",
    // 8.5 s old: connected now, past the 10 s age within a sweep or two.
    latest_handshake: new Date(Date.now() - 8500).toISOString(),
    endpoint: "198.51.100.7:51820",
    rx_bytes: 1,
    tx_bytes: 2,
  };
  t.services.events.emit("PeerHandshake", handshake);
  t.services.events.emit("PeerHandshake", handshake);
  await receiver.waitFor(1);
  const connected = JSON.parse(receiver.requests[0].body);
  assertEquals([connected.type, connected.data.id], ["peer.connected", "peer-1"]);
  await receiver.waitFor(2, 8000);
  assertEquals(types(receiver.requests), ["peer.connected", "peer.disconnected"]);
  assert(receiver.requests[1].at - receiver.requests[0].at >= 1000, "after the handshake aged");
});

Deno.test("webhooks: DNSSEC steps are dnssec.rollover as well as zone.changed; a webhook disabled over the API gets nothing more", async () => {
  await using rollovers = startReceiver(200);
  await using t = await startTestServer({ env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true" } });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const made = await api.post("/webhooks", { url: rollovers.url, events: ["dnssec.rollover"] });
  assertEquals(made.status, 201);
  t.services.events.emit("ZoneChanged", { zone: "a.example", action: "created", serial: 1 });
  t.services.events.emit("ZoneChanged", {
    zone: "a.example",
    action: "dnssec_key_active",
    serial: 2,
  });
  await rollovers.waitFor(1);
  const body = JSON.parse(rollovers.requests[0].body);
  assertEquals([body.type, body.data.action], ["dnssec.rollover", "dnssec_key_active"]);

  const off = await api.put(`/webhooks/${made.body.id}`, {
    url: rollovers.url,
    events: ["dnssec.rollover"],
    enabled: false,
  });
  assertEquals([off.status, off.body.enabled], [200, false]);
  t.services.events.emit("ZoneChanged", { zone: "a.example", action: "dnssec_rotated", serial: 3 });
  await new Promise((r) => setTimeout(r, 300));
  assertEquals(rollovers.requests.length, 1);
});

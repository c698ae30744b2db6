/**
 * The auth matrix, enumerated from the route tables (not a hand list): every
 * protected route of every listener refuses a forged credential, an expired
 * one, and a signed-in user whose role is too low (issue 19). A missing
 * credential is protected_routes_test.ts.
 */
import { SignJWT } from "jose";
import { assert, assertEquals } from "../assert.ts";
import { call, startTestServer, type TestServer } from "../helpers/test_server.ts";
import { ManualClock } from "../../lib/clock.ts";
import { type Access, METHODS } from "../../server/http/define.ts";
import type { RouteEntry } from "../../server/http/route_table.ts";

const DAY_MS = 86_400_000;
const BELOW: Partial<Record<Access, "viewer" | "operator">> = {
  operator: "viewer",
  administrator: "operator",
};

function samplePath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, (_, name) => `sample-${name}`);
}

interface Target {
  base: string;
  route: RouteEntry;
  method: string;
  access: Access;
}

function protectedRoutes(t: TestServer): Target[] {
  const out: Target[] = [];
  const bases = { admin: t.admin, dnsApi: t.dnsApi, attest: t.attest };
  for (const [listener, routes] of Object.entries(t.server.routes)) {
    for (const route of routes) {
      for (const method of METHODS) {
        const meta = route.module.meta?.[method];
        if (!meta || meta.access === "public") continue;
        out.push({
          base: bases[listener as keyof typeof bases],
          route,
          method,
          access: meta.access,
        });
      }
    }
  }
  return out;
}

/** Asks `target` with `authorization`; the status, and where a page sends the visitor. */
async function ask(target: Target, authorization: string) {
  const res = await fetch(`${target.base}${samplePath(target.route.pattern)}`, {
    method: target.method,
    redirect: "manual",
    headers: target.method === "GET"
      ? { authorization }
      : { authorization, "Content-Type": "application/json" },
    body: target.method === "GET" ? undefined : "{}",
  });
  const location = res.headers.get("location") ?? "";
  const body = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
  if (!body) await res.body?.cancel();
  return { status: res.status, location, body };
}

async function tokenOf(t: TestServer, username: string): Promise<string> {
  const cookie = await t.login(username, `${username}-password-123`);
  const r = await call(`${t.admin}/api/v1/auth/tokens`, {
    method: "POST",
    headers: { cookie },
    json: { name: `${username}-token`, expires_in_days: 1 },
  });
  return r.body.raw_token as string;
}

async function jwtOf(t: TestServer, username: string, password: string): Promise<string> {
  const r = await call(`${t.dnsApi}/api/v1/auth/login`, {
    method: "POST",
    json: { username, password },
  });
  return r.body.token as string;
}

/** What a refused credential must get: 401 JSON from an API, a login redirect from a page. */
function assertUnauthenticated(target: Target, r: Awaited<ReturnType<typeof ask>>, what: string) {
  const where = `${what}: ${target.method} ${target.route.pattern}`;
  if (target.route.isPage) {
    assertEquals(r.status, 303, where);
    assert(r.location.startsWith("/login?next="), where);
  } else {
    assertEquals([r.status, r.body?.status], [401, 401], where);
  }
}

Deno.test("every protected route refuses a forged credential, an expired one, and a role too low", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  await t.addUser("vera", "viewer");
  await t.addUser("otto", "operator");
  const targets = protectedRoutes(t);
  assert(targets.length >= 40, `only ${targets.length} protected methods found`);
  const isDns = (x: Target) => x.base === t.dnsApi;
  const tokens = {
    viewer: { admin: await tokenOf(t, "vera"), dns: await jwtOf(t, "vera", "vera-password-123") },
    operator: { admin: await tokenOf(t, "otto"), dns: await jwtOf(t, "otto", "otto-password-123") },
  };
  const forgedJwt = await new SignJWT({ role: "administrator" }).setProtectedHeader({
    alg: "HS256",
  })
    .setSubject("admin").setIssuedAt().setExpirationTime("1h")
    .sign(crypto.getRandomValues(new Uint8Array(32)));
  const forgedToken = `svc_${crypto.randomUUID()}_${"A".repeat(43)}`;
  let lowRole = 0;
  for (const target of targets) {
    const forged = isDns(target) ? forgedJwt : forgedToken;
    assertUnauthenticated(target, await ask(target, `Bearer ${forged}`), "forged");
    const below = BELOW[target.access];
    if (!below) continue;
    const r = await ask(target, `Bearer ${tokens[below][isDns(target) ? "dns" : "admin"]}`);
    assertEquals(r.status, 403, `role ${below}: ${target.method} ${target.route.pattern}`);
    lowRole++;
  }
  assert(lowRole >= 20, `only ${lowRole} routes need more than the viewer role`);
  // Two days on, the one-day API tokens and the one-hour JWTs have expired.
  clock.advance(2 * DAY_MS);
  for (const target of targets) {
    const expired = tokens.operator[isDns(target) ? "dns" : "admin"];
    assertUnauthenticated(target, await ask(target, `Bearer ${expired}`), "expired");
  }
});

/**
 * Sites and tokens for tests: a site registered over the admin API, a
 * reference client whose /init names the site and whose requests carry the
 * page's Origin, and tokens built and signed by that client the way the
 * browser script builds them (lib/attest/tokens/token_claims.ts).
 */
import { AttestClient, type Transport } from "../../lib/attest/client.ts";
import type { Core } from "../../lib/attest/core.ts";
import {
  encodeClaims,
  signedText,
  type TokenClaims,
  tokenString,
} from "../../lib/attest/tokens/token_claims.ts";
import { apiClient } from "./api_client.ts";
import type { TestServer } from "./test_server.ts";

export interface TestSite {
  id: string;
  site_key: string;
  secret: string;
}

export async function addSite(
  t: TestServer,
  body: { name: string; origins: string[]; min_chain?: number; token_ttl_s?: number },
): Promise<TestSite> {
  const api = apiClient(t.admin, { cookie: await t.login() });
  const r = await api.post("/attest/sites", body);
  if (r.status !== 201) throw new Error(`creating site failed: ${r.status}`);
  return r.body as TestSite;
}

/**
 * A transport whose /init carries `?site_key=` (none when `siteKey` is null) and whose
 * requests carry `Origin`.
 */
export function siteTransport(base: string, siteKey: string | null, origin: string): Transport {
  return {
    async post(path, body) {
      const q = path === "/init" && siteKey ? `?site_key=${siteKey}` : "";
      const res = await fetch(`${base}${path}${q}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: origin },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`POST ${path} answered ${res.status}`);
      return await res.json();
    },
  };
}

/** A client with a session for the site. */
export async function siteClient(
  core: Core,
  base: string,
  site: TestSite,
  origin: string,
  now: () => number,
): Promise<AttestClient> {
  const c = new AttestClient(core, siteTransport(base, site.site_key, origin), now);
  await c.init();
  return c;
}

/** A token for the client's session, signed by its key; `claims` overrides any claim. */
export function buildToken(
  c: AttestClient,
  site: TestSite,
  claims: Partial<TokenClaims> & { hn: string; iat: number },
): string {
  const full: TokenClaims = {
    v: 1,
    sid: c.session!.session_id,
    site: site.site_key,
    n: crypto.getRandomValues(new Uint8Array(16)).reduce(
      (s, b) => s + b.toString(16).padStart(2, "0"),
      "",
    ),
    chain: c.accepted,
    ...claims,
  };
  const part = encodeClaims(full);
  return tokenString(part, c.signText(signedText(part)));
}

/** POST /token as the page at `origin` would. */
export async function postToken(
  base: string,
  token: string,
  origin: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ token }),
  });
  return { status: res.status, body: await res.json() };
}

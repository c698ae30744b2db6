/**
 * `PalisadeAttest.token()` (docs/attestation_sites.md, "Tokens and
 * siteverify"): claims about the current session, signed with the session's
 * key inside WASM and registered with `POST /token`. The server refuses
 * (409) until the session has the site's min_chain accepted heartbeats; the
 * error says how many it has and needs.
 */
import {
  encodeClaims,
  LABEL,
  signedText,
  type TokenClaims,
  type TokenEnv,
  tokenString,
} from "../lib/attest/tokens/token_claims.ts";
import type { BrowserClient, Post } from "./browser_client.ts";

export interface TokenOptions {
  /** Turnstile's action: up to 32 of [A-Za-z0-9_-], returned by siteverify. */
  action?: string;
  /** Turnstile's cdata: the same limits. */
  cdata?: string;
}

/** What the page says about its environment; siteverify returns it as client-reported signals. */
export function environmentHints(): TokenEnv {
  const nav = globalThis.navigator;
  const env: TokenEnv = {
    webdriver: nav?.webdriver === true,
    headless_ua: /HeadlessChrome/.test(nav?.userAgent ?? ""),
    plugins: nav?.plugins?.length ?? 0,
    languages: nav?.languages?.length ?? 0,
  };
  try {
    const gl = globalThis.document?.createElement("canvas").getContext("webgl");
    const info = gl?.getExtension("WEBGL_debug_renderer_info");
    const renderer = info && gl?.getParameter(info.UNMASKED_RENDERER_WEBGL);
    if (typeof renderer === "string") env.webgl = renderer.slice(0, 128);
  } catch {
    // No WebGL: nothing to report.
  }
  return env;
}

function randomHex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

function checkLabel(name: string, v: string | undefined): void {
  if (v !== undefined && !LABEL.test(v)) {
    throw new Error(`${name} must be 1 to 32 characters of A-Z, a-z, 0-9, "_" and "-"`);
  }
}

/** A fresh token for `siteKey`, or an Error saying why not. */
export async function requestToken(
  client: BrowserClient,
  post: Post,
  siteKey: string | null,
  options: TokenOptions = {},
): Promise<string> {
  if (!siteKey) throw new Error("No site key: add data-site-key to the script tag");
  checkLabel("action", options.action);
  checkLabel("cdata", options.cdata);
  const env = environmentHints();
  const signed = await client.signForSession((sid, chain) => {
    const claims: TokenClaims = {
      v: 1,
      sid,
      site: siteKey,
      iat: Date.now(),
      n: randomHex(16),
      chain,
      hn: location.hostname,
      ...(options.action === undefined ? {} : { action: options.action }),
      ...(options.cdata === undefined ? {} : { cdata: options.cdata }),
      env,
    };
    return signedText(encodeClaims(claims));
  });
  if (!signed) throw new Error("No attestation session yet");
  const c = signed.text.slice(signedText("").length);
  const token = tokenString(c, signed.signature);
  const res = await post("/token", { token }, new AbortController().signal);
  const body = res.body as { token?: unknown; error?: unknown } | null;
  if (res.status === 200 && body && body.token === token) return token;
  const why = body && typeof body.error === "string" ? body.error : `answer ${res.status}`;
  throw new Error(`POST /token failed: ${why}`);
}

/**
 * The `signals` of a siteverify answer (docs/attestation_sites.md, "Signals"):
 * what the server measured of the session's heartbeats (`measured`, null for
 * a session none of whose heartbeats came from the site's origin), what the
 * page reported in its token's `env` claim (`client`, marked
 * `client_reported`: a bot can lie about all of it), and the flags of both in
 * one list. The spec's checks decide acceptance; these only inform the site.
 */
import type { TokenEnv } from "../tokens/token_claims.ts";
import type { SessionSignalsView, SignalFlag } from "./signals.ts";

/** What the page reported about its environment, unverified. */
export interface ClientSignals {
  client_reported: true;
  headless: boolean;
  webdriver: boolean;
  plugins?: number;
  languages?: number;
  webgl_renderer?: string;
}

/** A flag of the page's own report: named `client_…` so no one takes it for a measurement. */
export type ClientFlag = "client_headless" | "client_webdriver";

export interface Signals {
  /** Server flags first (fixed order), then the client's. */
  flags: (SignalFlag | ClientFlag)[];
  measured: Omit<SessionSignalsView, "session_id" | "site_id" | "flags" | "client"> | null;
  client: ClientSignals;
}

export interface SignalSource {
  /** The signals for a session, given what its token's claims reported. */
  forSession(sessionId: string, env: TokenEnv | undefined): Promise<Signals>;
}

function clientSignals(env: TokenEnv | undefined): ClientSignals {
  const e = env ?? {};
  const out: ClientSignals = {
    client_reported: true,
    headless: e.headless_ua === true,
    webdriver: e.webdriver === true,
  };
  if (Number.isSafeInteger(e.plugins)) out.plugins = e.plugins;
  if (Number.isSafeInteger(e.languages)) out.languages = e.languages;
  if (typeof e.webgl === "string") out.webgl_renderer = e.webgl.slice(0, 128);
  return out;
}

/**
 * Signals from the server's measurements (`measure`: `AttestService.signalsOf`
 * on SQLite, a query on PostgreSQL) and the token's `env`.
 */
export function sessionSignals(
  measure: (sessionId: string) => SessionSignalsView | null | Promise<SessionSignalsView | null>,
): SignalSource {
  return {
    async forSession(sessionId, env) {
      const client = clientSignals(env);
      const view = await measure(sessionId);
      const flags: Signals["flags"] = [...(view?.flags ?? [])];
      if (client.headless) flags.push("client_headless");
      if (client.webdriver) flags.push("client_webdriver");
      let measured: Signals["measured"] = null;
      if (view) {
        const { session_id: _s, site_id: _i, flags: _f, client: _c, ...rest } = view;
        measured = rest;
      }
      return { flags, measured, client };
    },
  };
}

/** Signals from the token's `env` claim alone (no measurements kept). */
export const clientReportedSignals: SignalSource = sessionSignals(() => null);

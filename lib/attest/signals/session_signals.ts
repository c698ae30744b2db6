/**
 * Automation signals about a session, returned by siteverify as `signals`
 * (issue 25, point 5). The spec's checks still decide acceptance; these only
 * inform the site. For now the only source is what the page reported in the
 * token's `env` claim, marked `client_reported`: a bot can lie about all of
 * it. Server-side signals (path regularity, replayed traces, timing) plug in
 * behind the same interface.
 */
import type { TokenEnv } from "../tokens/token_claims.ts";

export interface Signals {
  /** True when every value below came from the client, unverified. */
  client_reported: boolean;
  headless: boolean;
  webdriver: boolean;
  plugins?: number;
  languages?: number;
  webgl_renderer?: string;
}

export interface SessionSignals {
  /** The signals for a session, given what its token's claims reported. */
  forSession(sessionId: string, env: TokenEnv | undefined): Signals;
}

/** Signals from the token's `env` claim alone. */
export const clientReportedSignals: SessionSignals = {
  forSession(_sessionId, env) {
    const e = env ?? {};
    const out: Signals = {
      client_reported: true,
      headless: e.headless_ua === true,
      webdriver: e.webdriver === true,
    };
    if (Number.isSafeInteger(e.plugins)) out.plugins = e.plugins;
    if (Number.isSafeInteger(e.languages)) out.languages = e.languages;
    if (typeof e.webgl === "string") out.webgl_renderer = e.webgl.slice(0, 128);
    return out;
  },
};

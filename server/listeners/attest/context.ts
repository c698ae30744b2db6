/**
 * What the attestation listener's routes may use: the attestation service
 * and its settings. The threads serving the listener build exactly this, so
 * nothing else is loaded there. Route files declare themselves with this
 * `define`.
 */
import type { AttestRuntime } from "../../../lib/attest/attest_runtime.ts";
import type { Config } from "../../../lib/config/config.ts";
import type { Logger } from "../../../lib/log/log.ts";
import { type Context, createDefine } from "../../http/define.ts";

export interface AttestServices {
  /** The attestation options, and which proxies may name the client (the `/init` limit keys on it). */
  config: Pick<Config, "attest" | "trustedProxies">;
  attest: AttestRuntime;
  log: Logger;
}

export const define = createDefine<AttestServices>();

/** A request's context on this listener. */
export type AttestContext = Context<unknown, unknown, AttestServices>;

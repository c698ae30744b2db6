/**
 * The embedding API of the browser attestation client, for pages that bundle
 * it as a module; the `<script>` build (embed.ts) puts the same object on
 * `window.PalisadeAttest`. It wires the attestation loop (browser_client.ts)
 * to the browser: the WASM core fetched from the attestation listener,
 * pointer sampling on the window, the fingerprint, fetch, and a DOM
 * CustomEvent per status change for pages that prefer events to callbacks.
 */
import { canonicalPayload } from "../lib/attest/canonical.ts";
import { type AttestCore, loadAttestCore } from "../wasm/glue.ts";
import { type AttestStatus, BrowserClient, type Post } from "./browser_client.ts";
import { fingerprint } from "./fingerprint.ts";
import { PointerSampler } from "./pointer_sampler.ts";

export type { AttestState, AttestStatus, HeartbeatResult } from "./browser_client.ts";

/** Name of the CustomEvent dispatched (on `document` by default) with the status as `detail`. */
export const STATUS_EVENT = "palisade-attest:status";
/** Path of the WASM module on the attestation listener. */
export const WASM_PATH = "/palisade-attest.wasm";
/** A request without an answer after this long counts as a network failure. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface PalisadeAttestOptions {
  /** Base URL of the attestation listener, e.g. `https://attest.example`. */
  endpoint: string;
  /** URL of the WASM module; `<endpoint>/palisade-attest.wasm` by default. */
  wasmUrl?: string;
  /** Where status events are dispatched; `document` by default, null for none. */
  eventTarget?: EventTarget | null;
  /** Where pointer movement is sampled; `window` by default. */
  sampleTarget?: EventTarget;
  /** The site key (`data-site-key`), sent as `/init?site_key=`; none for a page of no site. */
  siteKey?: string | null;
}

/** What measureSigning() reports. */
export interface SigningMeasurement {
  iterations: number;
  /** Mean wall time of one sign_message call, in ms. */
  msPerSign: number;
  /** UTF-8 length of the payload signed. */
  payloadBytes: number;
}

export interface PalisadeAttest {
  /** Starts attestation; `endpoint` replaces the listener's URL (only while not running). */
  start(options?: { endpoint?: string }): void;
  /** Stops heartbeats and sampling and zeroes the private key. */
  stop(): void;
  /** Calls `cb` with the current status now and on every change; returns an unsubscribe function. */
  onStatus(cb: (status: AttestStatus) => void): () => void;
  readonly status: AttestStatus;
  /** The attestation listener's base URL in use. */
  readonly endpoint: string;
  /**
   * Times sign_message on this device: a separate WASM instance with a
   * throwaway key signs the last heartbeat payload (or a typical one)
   * `iterations` times. The session's key is never used for it.
   */
  measureSigning(iterations?: number): Promise<SigningMeasurement>;
}

/** The base URL without a trailing slash, resolved against the page's URL. */
export function normalizeEndpoint(endpoint: string): string {
  const url = new URL(endpoint, globalThis.location?.href);
  url.search = "";
  url.hash = "";
  return url.href.replace(/\/+$/, "");
}

async function compileModule(url: string): Promise<WebAssembly.Module> {
  const res = await fetch(url, { credentials: "omit" });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`GET ${url} answered ${res.status}`);
  }
  // Streaming compilation needs application/wasm; a proxy that relabels the file still works.
  const type = res.headers.get("content-type")?.split(";")[0].trim();
  if (type === "application/wasm" && typeof WebAssembly.compileStreaming === "function") {
    return await WebAssembly.compileStreaming(res);
  }
  return await WebAssembly.compile(await res.arrayBuffer());
}

function fetchPost(endpoint: () => string, siteKey: string | null): Post {
  // The body keeps the spec's fields: the site key travels in the query (docs/attestation_sites.md).
  const initQuery = siteKey ? `?site_key=${encodeURIComponent(siteKey)}` : "";
  return async (path, body, signal) => {
    const ctl = new AbortController();
    const abort = () => ctl.abort();
    signal.addEventListener("abort", abort);
    const timeout = setTimeout(abort, REQUEST_TIMEOUT_MS);
    try {
      const res = await fetch(endpoint() + path + (path === "/init" ? initQuery : ""), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
        signal: ctl.signal,
      });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the loop treats it as a rejection (2xx/4xx) or a failure (5xx).
      }
      return { status: res.status, body: parsed };
    } finally {
      clearTimeout(timeout);
      signal.removeEventListener("abort", abort);
    }
  };
}

/** A heartbeat payload of typical size, for measureSigning() before the first heartbeat. */
function typicalPayload(): string {
  const events = Array.from({ length: 64 }, (_, i) => ({
    x: 400 + Math.round(Math.sin(i / 5) * 1500) / 10,
    y: 300 + Math.round(Math.cos(i / 7) * 900) / 10,
    t: i * 23.4,
  }));
  return canonicalPayload({
    sessionId: "0".repeat(64),
    prevHash: "1".repeat(64),
    timestamp: Date.now(),
    events,
    stackState: { ip: 12, stack: [2654435769, 1, 4294967295] },
    fingerprint: fingerprint(),
    mutationStep: 1,
    geneCommitment: "2".repeat(64),
  });
}

/** Creates the client for one attestation listener; nothing runs until start(). */
export function createPalisadeAttest(options: PalisadeAttestOptions): PalisadeAttest {
  let endpoint = normalizeEndpoint(options.endpoint);
  const wasmUrl = () => options.wasmUrl ?? endpoint + WASM_PATH;
  let compiled: { url: string; module: Promise<WebAssembly.Module> } | null = null;
  const loadCore = async (): Promise<AttestCore> => {
    const url = wasmUrl();
    if (compiled?.url !== url) compiled = { url, module: compileModule(url) };
    const current = compiled;
    try {
      return await loadAttestCore(await current.module);
    } catch (err) {
      // Let a later start() fetch again (after a CSP fix or a network failure).
      if (compiled === current) compiled = null;
      throw err;
    }
  };
  const sampler = new PointerSampler();
  const sampleTarget = options.sampleTarget ?? globalThis;
  const client = new BrowserClient({
    loadCore,
    post: fetchPost(() => endpoint, options.siteKey ?? null),
    samples: {
      attach: () => sampler.attach(sampleTarget),
      detach: () => sampler.detach(),
      take: () => sampler.take(),
      giveBack: (events) => sampler.giveBack(events),
    },
    fingerprint: () => fingerprint(),
  });
  const eventTarget = options.eventTarget === undefined
    ? globalThis.document ?? null
    : options.eventTarget;
  // The only state a page cannot recover from by waiting: tell its developer (a CSP
  // without 'wasm-unsafe-eval' is the usual cause).
  client.onStatus((status) => {
    if (status.state === "error") console.error(`Palisade attestation: ${status.error}`);
  });
  if (eventTarget) {
    client.onStatus((status) =>
      eventTarget.dispatchEvent(new CustomEvent(STATUS_EVENT, { detail: status }))
    );
  }

  return {
    start(opts = {}) {
      const running = ["initializing", "active", "restarting"].includes(client.status.state);
      if (opts.endpoint !== undefined && !running) endpoint = normalizeEndpoint(opts.endpoint);
      client.start();
    },
    stop: () => client.stop(),
    onStatus: (cb) => client.onStatus(cb),
    get status() {
      return client.status;
    },
    get endpoint() {
      return endpoint;
    },
    async measureSigning(iterations = 200) {
      const n = Math.max(1, Math.min(10_000, Math.floor(iterations)));
      const core = await loadCore();
      try {
        core.generate_keypair();
        const payload = client.lastPayload ?? typicalPayload();
        // Warm-up: the first signatures of an instance also tune the engine's compiled code.
        for (let i = 0; i < 5; i++) core.sign_message(payload);
        const started = performance.now();
        for (let i = 0; i < n; i++) {
          if (!core.sign_message(payload)) throw new Error("sign_message failed");
        }
        const msPerSign = (performance.now() - started) / n;
        return { iterations: n, msPerSign, payloadBytes: new TextEncoder().encode(payload).length };
      } finally {
        core.forget_key();
      }
    },
  };
}

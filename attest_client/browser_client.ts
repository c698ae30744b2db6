/**
 * The attestation loop of the browser client: create a session, send signed
 * heartbeats with uniform jitter between the init response's bounds, and
 * apply each answer by the spec's client-state rules, as the reference client
 * lib/attest/client.ts does:
 *
 * 1. After init, keep session_id, initial_hash as prev_hash, the salt, the VM
 *    program, the pending step and order, and the committed gene state
 *    (init_gene_state in WASM).
 * 2. A heartbeat counts as accepted only when next_salt, next_mutation_step
 *    and next_mutation_order_b64 are all present. Then commit the gene
 *    preview, compute the next hash with the salt that was current when the
 *    heartbeat was sent, and take the new salt, step and order.
 * 3. Otherwise discard the preview, leave the chain alone and restart
 *    attestation: a new key pair in WASM (the old private key is zeroed) and
 *    a new /init.
 *
 * The private key never leaves the WASM instance: the loop only asks it to
 * sign the canonical payload. Transport failures (network, 5xx) keep the
 * session and retry with exponential backoff, so nothing ever spins. All I/O
 * and time come in as dependencies, so the loop runs under Deno in tests.
 */
import {
  canonicalPayload,
  type EntropyEvent,
  entropyJson,
  type Fingerprint,
  stackJson,
} from "../lib/attest/canonical.ts";
import { type AttestCore, PROGRAM_INVALID_IP } from "../wasm/glue.ts";

export type AttestState = "idle" | "initializing" | "active" | "restarting" | "stopped" | "error";
export type HeartbeatResult = "accepted" | "rejected";

/** What the embedding page sees; a fresh frozen object on every change. */
export interface AttestStatus {
  /**
   * idle: not started. initializing: creating the first session. active: a
   * session exists and heartbeats are scheduled. restarting: a heartbeat was
   * rejected and a new session is being created. stopped: stop() was called.
   * error: the WASM module could not be loaded (e.g. CSP without
   * 'wasm-unsafe-eval'); start() tries again.
   */
  state: AttestState;
  /** The current session, null while there is none. */
  sessionId: string | null;
  /** Accepted heartbeats of the current session. */
  chainLength: number;
  lastResult: HeartbeatResult | null;
  /** Client timestamp (Unix ms) of the last heartbeat sent. */
  lastHeartbeatAt: number | null;
  /** When the next heartbeat (or retry) is due (Unix ms), null when none is scheduled. */
  nextHeartbeatAt: number | null;
  /** Sessions replaced after a rejection since start(). */
  restarts: number;
  /** The last failure (network, server, module), null after the next success. */
  error: string | null;
}

/** A JSON POST to the attestation listener; throws on network failure. */
export type Post = (
  path: "/init" | "/hb" | "/token",
  body: unknown,
  signal: AbortSignal,
) => Promise<{ status: number; body: unknown }>;

/** Where the loop gets pointer and focus samples. */
export interface SampleSource {
  /** Opens the sampling window. */
  attach(): void;
  /** Stops sampling and drops what is buffered. */
  detach(): void;
  take(): EntropyEvent[];
  giveBack(events: EntropyEvent[]): void;
}

/** A timer; the callback's promise is for tests, which await it. */
export interface Timer {
  set(fn: () => Promise<void>, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface BrowserClientDeps {
  /** Loads a fresh core instance; called once per client. */
  loadCore(): Promise<AttestCore>;
  post: Post;
  samples: SampleSource;
  fingerprint(): Fingerprint;
  /** Unix ms; Date.now by default. */
  now?: () => number;
  /** Uniform in [0, 1); Math.random by default. */
  random?: () => number;
  timer?: Timer;
}

/** First retry delay after a transport failure; doubles per failure up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 2_000;
export const RETRY_MAX_MS = 60_000;
/**
 * Floor on the scheduling bounds the server sends: a misconfigured server
 * must not make every open page post in a tight loop.
 */
export const MIN_INTERVAL_FLOOR_MS = 1_000;

interface Session {
  id: string;
  prevHash: string;
  salt: string;
  program: string;
  step: number;
  order: string;
  minMs: number;
  maxMs: number;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const HEX32 = /^[0-9a-fA-F]{32}$/;
const isStep = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function parseInit(body: unknown): (Session & { geneSize: number }) | null {
  if (!isObject(body)) return null;
  const b = body;
  if (
    typeof b.session_id !== "string" || !HEX64.test(b.session_id) ||
    typeof b.initial_hash !== "string" || !HEX64.test(b.initial_hash) ||
    typeof b.salt !== "string" || !HEX32.test(b.salt) ||
    typeof b.opcodes_b64 !== "string" || typeof b.mutation_order_b64 !== "string" ||
    !isStep(b.mutation_step) || !Number.isInteger(b.gene_size) ||
    !isStep(b.heartbeat_min_interval_ms) || !isStep(b.heartbeat_max_interval_ms)
  ) {
    return null;
  }
  const minMs = Math.max(MIN_INTERVAL_FLOOR_MS, b.heartbeat_min_interval_ms);
  return {
    id: b.session_id,
    prevHash: b.initial_hash,
    salt: b.salt,
    program: b.opcodes_b64,
    step: b.mutation_step,
    order: b.mutation_order_b64,
    minMs,
    maxMs: Math.max(minMs, b.heartbeat_max_interval_ms),
    geneSize: b.gene_size as number,
  };
}

/** The next-state fields of an accepted heartbeat; null unless all three are present (rule 2). */
function parseAccepted(body: unknown): { salt: string; step: number; order: string } | null {
  if (!isObject(body)) return null;
  const { next_salt, next_mutation_step, next_mutation_order_b64 } = body;
  if (typeof next_salt !== "string" || !HEX32.test(next_salt)) return null;
  if (!isStep(next_mutation_step) || typeof next_mutation_order_b64 !== "string") return null;
  return { salt: next_salt, step: next_mutation_step, order: next_mutation_order_b64 };
}

const realTimer: Timer = {
  set: (fn, ms) => setTimeout(() => void fn(), ms),
  clear: (h) => clearTimeout(h as number),
};

const message = (err: unknown) => err instanceof Error ? err.message : String(err);

const RUNNING: ReadonlySet<AttestState> = new Set(["initializing", "active", "restarting"]);

export class BrowserClient {
  #status: AttestStatus = Object.freeze({
    state: "idle",
    sessionId: null,
    chainLength: 0,
    lastResult: null,
    lastHeartbeatAt: null,
    nextHeartbeatAt: null,
    restarts: 0,
    error: null,
  });
  readonly #listeners = new Set<(s: AttestStatus) => void>();
  #core: Promise<AttestCore> | null = null;
  #session: Session | null = null;
  /** Generation of start()/stop(): async work of an older generation drops its result. */
  #run = 0;
  #timer: unknown = null;
  #inFlight: AbortController | null = null;
  /** Consecutive transport failures, for the backoff. */
  #failures = 0;
  /** Consecutive rejections without an accepted heartbeat, for spacing restarts. */
  #rejections = 0;
  #lastPayload: string | null = null;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #timerImpl: Timer;

  constructor(private readonly deps: BrowserClientDeps) {
    this.#now = deps.now ?? (() => Date.now());
    this.#random = deps.random ?? Math.random;
    this.#timerImpl = deps.timer ?? realTimer;
  }

  get status(): AttestStatus {
    return this.#status;
  }

  /** The last canonical payload signed, or null; it is public data (measureSigning uses it). */
  get lastPayload(): string | null {
    return this.#lastPayload;
  }

  /**
   * Signs the text `build` makes from the current session's id and accepted
   * heartbeats with the session's key, inside WASM (for tokens: the key
   * never leaves it). Null while there is no active session.
   */
  async signForSession(
    build: (sessionId: string, chainLength: number) => string,
  ): Promise<{ sessionId: string; text: string; signature: string } | null> {
    const core = await this.#core;
    const s = this.#session;
    if (!core || !s || this.#status.state !== "active") return null;
    const text = build(s.id, this.#status.chainLength);
    const signature = core.sign_message(text);
    return signature ? { sessionId: s.id, text, signature } : null;
  }

  /** Calls `cb` now and on every status change; returns a function that unsubscribes. */
  onStatus(cb: (s: AttestStatus) => void): () => void {
    this.#listeners.add(cb);
    this.#notify(cb);
    return () => this.#listeners.delete(cb);
  }

  /** Starts sampling and attestation; does nothing while already running. */
  start(): void {
    if (RUNNING.has(this.#status.state)) return;
    const run = ++this.#run;
    this.#failures = 0;
    this.#rejections = 0;
    this.#update({
      state: "initializing",
      sessionId: null,
      chainLength: 0,
      lastResult: null,
      lastHeartbeatAt: null,
      nextHeartbeatAt: null,
      restarts: 0,
      error: null,
    });
    this.deps.samples.attach();
    void this.#establish(run, "initializing");
  }

  /** Stops everything: timers, the request in flight, sampling; zeroes the private key. */
  stop(): void {
    if (!RUNNING.has(this.#status.state)) return;
    this.#run++;
    this.#halt();
    this.deps.samples.detach();
    this.#update({ state: "stopped", sessionId: null, nextHeartbeatAt: null });
  }

  #halt(): void {
    if (this.#timer !== null) this.#timerImpl.clear(this.#timer);
    this.#timer = null;
    this.#inFlight?.abort();
    this.#inFlight = null;
    this.#session = null;
    // The core may still be loading; once it is there, drop the preview and the key.
    void this.#core?.then((core) => {
      core.discard_gene_preview();
      core.forget_key();
    }, () => {});
  }

  #update(patch: Partial<AttestStatus>): void {
    this.#status = Object.freeze({ ...this.#status, ...patch });
    for (const cb of this.#listeners) this.#notify(cb);
  }

  #notify(cb: (s: AttestStatus) => void): void {
    try {
      cb(this.#status);
    } catch (err) {
      // A broken listener must not stop attestation; report it like an uncaught error.
      queueMicrotask(() => {
        throw err;
      });
    }
  }

  #schedule(run: number, fn: () => Promise<void>, delay: number): void {
    this.#timer = this.#timerImpl.set(async () => {
      this.#timer = null;
      if (run === this.#run) await fn();
    }, delay);
    this.#update({ nextHeartbeatAt: this.#now() + Math.round(delay) });
  }

  /** Backoff after a transport failure: 2 s, 4 s, … up to 60 s, each with 50–100 % jitter. */
  #backoff(): number {
    const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(this.#failures - 1, 10));
    return base * (0.5 + 0.5 * this.#random());
  }

  async #post(path: "/init" | "/hb", body: unknown): Promise<{ status: number; body: unknown }> {
    const ctl = new AbortController();
    this.#inFlight = ctl;
    try {
      return await this.deps.post(path, body, ctl.signal);
    } finally {
      if (this.#inFlight === ctl) this.#inFlight = null;
    }
  }

  /** Creates a session: a new key pair in WASM, POST /init, the committed gene state (rule 1). */
  async #establish(run: number, state: "initializing" | "restarting"): Promise<void> {
    this.#session = null;
    this.#update({ state, sessionId: null, chainLength: 0, nextHeartbeatAt: null });
    let core: AttestCore;
    try {
      core = await (this.#core ??= this.deps.loadCore());
    } catch (err) {
      this.#core = null;
      if (run !== this.#run) return;
      this.#run++;
      this.deps.samples.detach();
      this.#update({
        state: "error",
        nextHeartbeatAt: null,
        error: `Cannot load the attestation module: ${message(err)}`,
      });
      return;
    }
    if (run !== this.#run) return;
    // Replaces (and zeroes) any previous key: a restarted session never reuses a key.
    const publicKey = core.generate_keypair();
    let res: { status: number; body: unknown };
    try {
      res = await this.#post("/init", { public_key: publicKey });
    } catch (err) {
      if (run !== this.#run) return;
      return this.#retry(
        run,
        () => this.#establish(run, state),
        `POST /init failed: ${message(err)}`,
      );
    }
    if (run !== this.#run) return;
    const init = res.status === 200 ? parseInit(res.body) : null;
    if (!init || !core.init_gene_state(init.geneSize)) {
      const why = init ? `gene size ${init.geneSize} is not usable` : `answer ${res.status}`;
      return this.#retry(run, () => this.#establish(run, state), `POST /init failed: ${why}`);
    }
    const { geneSize: _, ...session } = init;
    this.#session = session;
    this.#failures = 0;
    this.#update({ state: "active", sessionId: session.id, chainLength: 0, error: null });
    this.#schedule(run, () => this.#beat(run), this.#interval(session));
  }

  #interval(s: Session): number {
    return s.minMs + this.#random() * (s.maxMs - s.minMs);
  }

  #retry(run: number, fn: () => Promise<void>, error: string): void {
    this.#failures++;
    this.#update({ error });
    this.#schedule(run, fn, this.#backoff());
  }

  /** A rejection (rule 3): the preview is already discarded; replace the session. */
  #restart(run: number, error: string | null = null): Promise<void> | void {
    this.#session = null;
    this.#rejections++;
    this.#update({
      state: "restarting",
      sessionId: null,
      restarts: this.#status.restarts + 1,
      error,
    });
    // The first restart is immediate; repeated ones (a page nobody uses) are spaced out.
    if (this.#rejections === 1) return this.#establish(run, "restarting");
    const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(this.#rejections - 2, 10));
    this.#schedule(
      run,
      () => this.#establish(run, "restarting"),
      delay * (0.5 + 0.5 * this.#random()),
    );
  }

  /** Builds, signs and sends one heartbeat, then applies the answer. */
  async #beat(run: number): Promise<void> {
    const s = this.#session;
    const core = await this.#core;
    if (!s || !core || run !== this.#run) return;
    const timestamp = Math.floor(this.#now());
    const events = this.deps.samples.take();
    const stackState = core.run_program(s.program);
    const rounds = core.mutation_order_rounds(s.order);
    // preview_gene_commitment starts from the committed state and replaces any older preview.
    const geneCommitment = rounds === 0
      ? ""
      : core.preview_gene_commitment(s.order, s.id, s.step, rounds);
    if (stackState.ip === PROGRAM_INVALID_IP || !geneCommitment) {
      core.discard_gene_preview();
      return this.#restart(run, "The session's program or mutation order cannot be run");
    }
    const fp = this.deps.fingerprint();
    const payload = canonicalPayload({
      sessionId: s.id,
      prevHash: s.prevHash,
      timestamp,
      events,
      stackState,
      fingerprint: fp,
      mutationStep: s.step,
      geneCommitment,
    });
    const signature = core.sign_message(payload);
    if (!signature) {
      core.discard_gene_preview();
      return this.#restart(run, "Signing failed");
    }
    this.#lastPayload = payload;
    // The salt of this heartbeat's hash-chain step is the one current now, not the next one.
    const saltWhenSent = s.salt;
    this.#update({ lastHeartbeatAt: timestamp, nextHeartbeatAt: null });
    let res: { status: number; body: unknown };
    try {
      res = await this.#post("/hb", {
        session_id: s.id,
        prev_hash: s.prevHash,
        timestamp,
        entropy_data: { events },
        stack_state: stackState,
        fingerprint: fp,
        mutation_step: s.step,
        gene_commitment: geneCommitment,
        signature,
      });
    } catch (err) {
      if (run !== this.#run) return;
      return this.#transportFailure(run, core, events, `POST /hb failed: ${message(err)}`);
    }
    if (run !== this.#run) return;
    if (res.status >= 500) {
      return this.#transportFailure(run, core, events, `POST /hb failed: answer ${res.status}`);
    }
    const next = res.status === 200 ? parseAccepted(res.body) : null;
    if (!next) {
      core.discard_gene_preview();
      this.#update({ lastResult: "rejected" });
      return this.#restart(run);
    }
    const nextHash = core.commit_gene_preview()
      ? core.compute_next_hash(
        s.prevHash,
        timestamp,
        entropyJson(events),
        stackJson(stackState),
        saltWhenSent,
      )
      : "";
    if (!nextHash) {
      // Cannot happen with a sound core; without the next hash the session is unusable.
      this.#update({ lastResult: "accepted" });
      return this.#restart(run, "Cannot advance the local hash chain");
    }
    this.#session = {
      ...s,
      prevHash: nextHash,
      salt: next.salt,
      step: next.step,
      order: next.order,
    };
    this.#failures = 0;
    this.#rejections = 0;
    this.#update({
      lastResult: "accepted",
      chainLength: this.#status.chainLength + 1,
      error: null,
    });
    this.#schedule(run, () => this.#beat(run), this.#interval(this.#session));
  }

  /**
   * The heartbeat never got an answer: keep the session, drop the preview, put
   * the samples back for the retry. If the server did accept it, the retry
   * fails the chain check and the rejection restarts attestation.
   */
  #transportFailure(run: number, core: AttestCore, events: EntropyEvent[], error: string): void {
    core.discard_gene_preview();
    this.deps.samples.giveBack(events);
    this.#retry(run, () => this.#beat(run), error);
  }
}

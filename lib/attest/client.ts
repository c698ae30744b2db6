/**
 * The reference attestation client in TypeScript: Ed25519 by `node:crypto`,
 * everything else by the same WASM core the browser runs. It follows the
 * spec's client-state rules: an accepted heartbeat commits the gene preview
 * and advances the chain with the salt that was current when it was sent; a
 * rejected one changes nothing. Tests and the benchmark drive the service
 * with it; the README shows it as the protocol example.
 */
import { Buffer } from "node:buffer";
import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import {
  canonicalPayload,
  type EntropyEvent,
  entropyJson,
  type Fingerprint,
  stackJson,
} from "./canonical.ts";
import type { Core } from "./core.ts";
import { rawPublicKeyHex } from "./ed25519.ts";
import type { Accepted, HeartbeatRequest, InitResponse } from "./messages.ts";

export interface HeartbeatOptions {
  events?: EntropyEvent[];
  fingerprint?: Fingerprint;
  timestamp?: number;
}

/** A heartbeat ready to send, with the gene state it commits to. */
export interface PreparedHeartbeat {
  request: HeartbeatRequest;
  nextGene: Uint8Array;
}

export interface Transport {
  post(path: string, body: unknown): Promise<unknown>;
}

/** A JSON-over-fetch transport to an attestation listener. */
export function fetchTransport(base: string): Transport {
  return {
    async post(path, body) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`POST ${path} answered ${res.status}`);
      }
      return await res.json();
    },
  };
}

/**
 * A human-looking pointer path ending at `now`: a curve sampled every
 * 16–40 ms, with one pause of 150–400 ms in the middle.
 */
export function humanPath(now: number, samples = 24): EntropyEvent[] {
  const events: EntropyEvent[] = [];
  let t = now - 2000;
  let x = 200 + Math.random() * 400;
  let y = 150 + Math.random() * 300;
  const heading = Math.random() * Math.PI * 2;
  for (let i = 0; i < samples; i++) {
    events.push({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, t: Math.round(t) });
    const step = 3 + Math.random() * 9;
    const turn = heading + Math.sin(i / 4) * 0.8;
    x += Math.cos(turn) * step;
    y += Math.sin(turn) * step;
    t += i === Math.floor(samples / 2) ? 150 + Math.random() * 250 : 16 + Math.random() * 24;
  }
  return events;
}

/** A plausible desktop fingerprint. */
export const DESKTOP_FINGERPRINT: Fingerprint = {
  aspectRatio: (16 / 9).toFixed(10),
  devicePixelRatio: "1",
  hardwareConcurrency: 8,
};

export class AttestClient {
  readonly #privateKey: KeyObject;
  readonly publicKeyHex: string;
  session: InitResponse | null = null;
  prevHash = "";
  salt = "";
  step = 0;
  order = "";
  gene: Uint8Array = new Uint8Array();
  accepted = 0;

  constructor(
    private readonly core: Core,
    private readonly transport: Transport,
    private readonly now = () => Date.now(),
  ) {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    this.#privateKey = privateKey;
    // The raw key is the last 32 bytes of the SPKI DER encoding.
    this.publicKeyHex = rawPublicKeyHex(publicKey);
  }

  /** POST /init and take the initial state (client rule 1). */
  async init(): Promise<InitResponse> {
    const s = await this.transport.post("/init", { public_key: this.publicKeyHex }) as InitResponse;
    this.session = s;
    this.prevHash = s.initial_hash;
    this.salt = s.salt;
    this.step = s.mutation_step;
    this.order = s.mutation_order_b64;
    this.gene = this.core.initialGeneState(s.gene_size);
    return s;
  }

  /** Signs a request's canonical payload with this client's key (after any edit of it). */
  sign(request: HeartbeatRequest): HeartbeatRequest {
    const payload = canonicalPayload({
      sessionId: request.session_id,
      prevHash: request.prev_hash,
      timestamp: request.timestamp,
      events: request.entropy_data.events,
      stackState: request.stack_state,
      fingerprint: request.fingerprint,
      mutationStep: request.mutation_step,
      geneCommitment: request.gene_commitment,
    });
    request.signature = sign(null, Buffer.from(payload, "utf8"), this.#privateKey).toString("hex");
    return request;
  }

  /** Signs any UTF-8 text with this client's key: a site token (lib/attest/tokens/token_claims.ts). */
  signText(text: string): string {
    return sign(null, Buffer.from(text, "utf8"), this.#privateKey).toString("hex");
  }

  /** Builds the next valid, signed heartbeat without changing any state. */
  prepareHeartbeat(opts: HeartbeatOptions = {}): PreparedHeartbeat {
    if (!this.session) throw new Error("init() first");
    const preview = this.core.advanceGene(
      this.gene,
      this.order,
      this.session.session_id,
      this.step,
    );
    if (!preview) throw new Error("The pending mutation order is malformed");
    const timestamp = opts.timestamp ?? this.now();
    const request: HeartbeatRequest = {
      session_id: this.session.session_id,
      prev_hash: this.prevHash,
      timestamp,
      entropy_data: { events: opts.events ?? humanPath(timestamp) },
      stack_state: this.core.runProgram(this.session.opcodes_b64),
      fingerprint: opts.fingerprint ?? DESKTOP_FINGERPRINT,
      mutation_step: this.step,
      gene_commitment: preview.commitment,
      signature: "",
    };
    return { request: this.sign(request), nextGene: preview.state };
  }

  /**
   * Sends a prepared heartbeat. Accepted only when every next-state field is
   * present (rule 2); a rejection leaves the state as it was (rule 3).
   */
  async send(prepared: PreparedHeartbeat): Promise<boolean> {
    const body = await this.transport.post("/hb", prepared.request) as Partial<Accepted>;
    this.commit(prepared, body);
    return this.isAccepted(body);
  }

  isAccepted(body: Partial<Accepted>): body is Accepted {
    return typeof body.next_salt === "string" && typeof body.next_mutation_step === "number" &&
      typeof body.next_mutation_order_b64 === "string";
  }

  /** Applies a response to the local state (rules 2 and 3). */
  commit(prepared: PreparedHeartbeat, body: Partial<Accepted>): void {
    if (!this.isAccepted(body)) return;
    const r = prepared.request;
    this.prevHash = this.core.nextHash(
      r.prev_hash,
      r.timestamp,
      entropyJson(r.entropy_data.events),
      stackJson(r.stack_state),
      this.salt,
    );
    this.gene = prepared.nextGene;
    this.salt = body.next_salt;
    this.step = body.next_mutation_step;
    this.order = body.next_mutation_order_b64;
    this.accepted++;
  }

  /** prepareHeartbeat() and send() in one step. */
  heartbeat(opts: HeartbeatOptions = {}): Promise<boolean> {
    return this.send(this.prepareHeartbeat(opts));
  }
}

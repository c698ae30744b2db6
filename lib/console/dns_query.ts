/**
 * `dns query <name>`: one question put to the in-process responder (over its
 * TCP path, which is not rate limited and never truncates), answered as the
 * DNS listener would answer it, decoded to JSON.
 */
import { Buffer } from "node:buffer";
import { ValidationError } from "../errors.ts";
import { type DataRecord, dnsPacket } from "../dns/packet.ts";
import { normalizeType } from "../dns/rdata.ts";
import type { DnsResponder } from "../dns/responder.ts";

/** Types the console does not ask: transfers belong to secondaries. */
const REFUSED_TYPES = new Set(["AXFR", "IXFR"]);

export interface DnsQueryResult {
  rcode: string;
  authoritative: boolean;
  answers: unknown[];
  authorities: unknown[];
  additionals: unknown[];
}

/** The responder's answer to `name`/`type` class IN, or null when it sends none. */
export async function dnsQuery(
  responder: Pick<DnsResponder, "tcp">,
  name: string,
  type: string,
): Promise<DnsQueryResult | null> {
  const t = normalizeType(type, "parameters.type");
  if (REFUSED_TYPES.has(t)) {
    throw new ValidationError(
      `Record type "${t}" is not queried by the console`,
      "parameters.type",
    );
  }
  const id = crypto.getRandomValues(new Uint16Array(1))[0];
  const msg = new Uint8Array(
    dnsPacket.encode({
      type: "query",
      id,
      questions: [{ name: name || ".", type: t, class: "IN" }],
    }),
  );
  const [reply] = await responder.tcp(msg, "127.0.0.1");
  if (!reply) return null;
  const p = dnsPacket.decode(Buffer.from(reply));
  return {
    rcode: p.rcode,
    authoritative: p.flag_aa,
    answers: p.answers.map(record),
    authorities: p.authorities.map(record),
    additionals: p.additionals.filter((r) => r.type !== "OPT").map(record),
  };
}

function record(r: DataRecord | { type: string }): unknown {
  const d = r as DataRecord;
  return { name: d.name, type: d.type, ttl: d.ttl, data: plain(d.data, d.type) };
}

/**
 * dns-packet's data as JSON: text strings (TXT) as text, digests as hex, a
 * DNSKEY's key as `public_key` (it is public, and that is how the masking
 * knows), other bytes as base64.
 */
function plain(v: unknown, type: string, key = ""): unknown {
  if (v instanceof Uint8Array) {
    if (key === "digest") return Buffer.from(v).toString("hex").toUpperCase();
    if (type === "TXT" || type === "SPF") return new TextDecoder().decode(v);
    return Buffer.from(v).toString("base64");
  }
  if (Array.isArray(v)) return v.map((x) => plain(x, type, key));
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k === "key" ? "public_key" : k] = plain(x, type, k);
    return out;
  }
  return v;
}

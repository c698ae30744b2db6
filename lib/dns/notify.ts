/**
 * NOTIFY messages (RFC 1996) and the secondaries they go to
 * (PALISADE_DNS_NOTIFY). Building and checking packets lives here; the UDP
 * socket that sends them is in server/dns_notify.ts.
 */
import { Buffer } from "node:buffer";
import { ConfigError } from "../errors.ts";
import { ipBytes } from "./acl.ts";
import { fqdn } from "./names.ts";
import { dnsPacket } from "./packet.ts";

export interface NotifyTarget {
  hostname: string;
  port: number;
  /** The TSIG key (by name) that signs NOTIFY to this secondary; unsigned when absent. */
  key?: string;
}

/** A TSIG key name as the key service stores it (lower case, no final dot), or null. */
function notifyKeyName(text: string): string | null {
  const name = text.toLowerCase().replace(/\.$/, "");
  return /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/.test(name) ? name : null;
}

/**
 * Parses "host[:port][@key]" entries ("192.0.2.1:53", "[2001:db8::1]:5300",
 * "192.0.2.1", "192.0.2.1:53@xfr-key"); throws ConfigError.
 */
export function parseNotifyTargets(
  entries: string[],
  variable = "PALISADE_DNS_NOTIFY",
): NotifyTarget[] {
  return entries.map((e) => e.trim()).filter((e) => e !== "").map((entry) => {
    const at = entry.lastIndexOf("@");
    const address = at < 0 ? entry : entry.slice(0, at);
    const key = at < 0 ? undefined : notifyKeyName(entry.slice(at + 1));
    if (key === null) {
      throw new ConfigError(variable, `"${entry}" names no valid TSIG key after "@"`);
    }
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address) ??
      /^([0-9a-fA-F:]+)()$/.exec(address);
    const port = m?.[2] ? Number(m[2]) : 53;
    if (!m || !ipBytes(m[1]) || port < 1 || port > 65535) {
      throw new ConfigError(variable, `"${entry}" is not an IP address with an optional port`);
    }
    return key ? { hostname: m[1], port, key } : { hostname: m[1], port };
  });
}

const OPCODE_NOTIFY = 4;

/** A NOTIFY for `zone` (AA set, question SOA, RFC 1996 §3.7). */
export function notifyMessage(id: number, zone: string): Uint8Array {
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id,
    flags: (OPCODE_NOTIFY << 11) | dnsPacket.AUTHORITATIVE_ANSWER,
    questions: [{ name: fqdn(zone), type: "SOA", class: "IN" }],
  }));
}

/** True when `msg` is the secondary's answer to our NOTIFY `id` (any rcode ends the retries). */
export function isNotifyReply(msg: Uint8Array, id: number): boolean {
  if (msg.length < 12) return false;
  try {
    const p = dnsPacket.decode(Buffer.from(msg));
    return p.id === id && p.type === "response" && p.opcode === "NOTIFY";
  } catch {
    return false;
  }
}

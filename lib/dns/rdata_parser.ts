/**
 * The token reader the per-type RDATA parsers share (rdata_parsers.ts,
 * rdata_digests.ts, rdata_naptr.ts): integers in range, names, hex and
 * character-strings, each bounded by what the wire format can carry, with
 * errors that name the type and the field.
 */
import { ValidationError } from "../errors.ts";
import { normalizeName } from "./names.ts";
import { dnsPacket } from "./packet.ts";
import type { Origin } from "./rdata.ts";
import { type Token, unescapeBytes } from "./tokens.ts";

/** RDLENGTH is 16 bits (RFC 1035 §3.2.1). */
export const MAX_RDATA = 65_535;

/** RDATA from dns-packet's encoder for `type`; callers bound the data first, since it throws beyond 16 bits. */
export function wireOf(type: string, data: unknown): Uint8Array {
  // The per-type encoders write a two-byte RDLENGTH first.
  return new Uint8Array(dnsPacket.record(type).encode(data).subarray(2));
}

/** Reads one record's data tokens; `fail` names the type and the field. */
export class Parser {
  i = 0;
  constructor(
    readonly type: string,
    readonly tokens: Token[],
    readonly origin: Origin,
    readonly field: string,
  ) {}

  fail(why: string): never {
    throw new ValidationError(`Invalid ${this.type} value: ${why}`, this.field);
  }
  next(what: string): Token {
    const t = this.tokens[this.i++];
    if (!t) this.fail(`missing ${what}`);
    return t;
  }
  get rest(): Token[] {
    const r = this.tokens.slice(this.i);
    this.i = this.tokens.length;
    return r;
  }
  end(): void {
    if (this.i < this.tokens.length) {
      this.fail(`unexpected "${this.tokens[this.i].text}"`);
    }
  }
  int(what: string, max: number, min = 0): number {
    const t = this.next(what).text;
    if (!/^[0-9]{1,10}$/.test(t) || Number(t) > max || Number(t) < min) {
      this.fail(`${what} "${t}" is not an integer from ${min} to ${max}`);
    }
    return Number(t);
  }
  /** A domain name; returns it without trailing dot ("" for the root). */
  name(what: string): string {
    const t = this.next(what);
    const text = t.text;
    if (text === ".") return "";
    if (text === "@") {
      if (this.origin === null) this.fail(`${what} "@" is only allowed in zone files`);
      return this.origin;
    }
    if (text.includes("\\")) {
      this.fail(`${what} "${text}" contains an escape, which is not supported`);
    }
    let abs = text;
    if (!text.endsWith(".") && this.origin !== null) abs = `${text}.${this.origin}`;
    try {
      return normalizeName(abs, this.field, { slash: true });
    } catch (err) {
      const why = err instanceof ValidationError ? `: ${err.message}` : "";
      return this.fail(`${what} "${text}" is not a valid domain name${why}`);
    }
  }
  /** The remaining tokens as one hex string (BIND allows spaces inside), upper case, at most `maxBytes`. */
  hex(what: string, maxBytes: number): string {
    const hex = this.rest.map((t) => t.text).join("");
    if (hex === "" || !/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) {
      this.fail(`${what} is not hexadecimal`);
    }
    if (hex.length / 2 > maxBytes) {
      this.fail(`${what} is ${hex.length / 2} bytes, more than the ${maxBytes} a record can hold`);
    }
    return hex.toUpperCase();
  }
  /** One character-string: at most 255 bytes (RFC 1035 §3.3). */
  bytes(what: string): Uint8Array {
    const t = this.next(what);
    const b = unescapeBytes(t.text, this.field);
    if (b.length > 255) this.fail(`${what} is longer than 255 bytes`);
    return b;
  }
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Bytes of upper-case or lower-case `hex`. */
export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

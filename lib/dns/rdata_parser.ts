/**
 * The token reader the per-type RDATA parsers share (rdata_parsers.ts,
 * rdata_digests.ts, rdata_naptr.ts): integers in range, names, hex and
 * character-strings, each bounded by what the wire format can carry, with
 * errors that name the type and the field.
 */
import { ValidationError } from "../errors.ts";
import { isAbsoluteText, labelText, normalizeName } from "./names.ts";
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
    let abs = text;
    if (!isAbsoluteText(text) && this.origin !== null) abs = `${text}.${this.origin}`;
    try {
      return normalizeName(abs, this.field, { slash: true, escapes: true });
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
  /** The remaining tokens as one base64 text (spaces allowed inside), at least one byte, at most `maxBytes`. */
  base64(what: string, maxBytes: number): Uint8Array {
    const bytes = base64Bytes(this.rest.map((t) => t.text).join(""));
    if (!bytes) this.fail(`${what} is not base64`);
    if (bytes.length > maxBytes) {
      this.fail(`${what} is ${bytes.length} bytes, more than the ${maxBytes} a record can hold`);
    }
    return bytes;
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

/** The bytes of padded base64 `text` (RFC 4648 §4), at least one; null when it is not that. */
export function base64Bytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return bytes.length ? bytes : null;
  } catch {
    return null;
  }
}

/** Canonical base64 of `bytes` (RFC 4648 §4, padded). */
export function base64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Upper-case hex of `bytes`. */
export function hexOf(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s.toUpperCase();
}

/**
 * Reads RDATA of a known type given in RFC 3597's generic form, so that its
 * fields can be written in the type's presentation and checked by the type's
 * own parser. Names must be uncompressed (RFC 3597 §4).
 */
export class WireReader {
  o = 0;
  constructor(readonly b: Uint8Array, readonly fail: (why: string) => never) {}

  get left(): number {
    return this.b.length - this.o;
  }
  take(n: number, what: string): Uint8Array {
    if (this.o + n > this.b.length) this.fail(`the data ends inside the ${what}`);
    return this.b.subarray(this.o, this.o += n);
  }
  u8(what: string): number {
    return this.take(1, what)[0];
  }
  u16(what: string): number {
    const b = this.take(2, what);
    return (b[0] << 8) | b[1];
  }
  u32(what: string): number {
    const b = this.take(4, what);
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  }
  rest(): Uint8Array {
    return this.take(this.left, "data");
  }
  charString(what: string): Uint8Array {
    return this.take(this.u8(what), what);
  }
  /** A name in presentation form, absolute with its trailing dot. */
  name(what: string): string {
    const labels: string[] = [];
    while (true) {
      const len = this.u8(what);
      if (len === 0) break;
      if (len > 63) this.fail(`the ${what} is compressed or has a label longer than 63 bytes`);
      labels.push(labelText(this.take(len, what), true));
    }
    return labels.length ? labels.join(".") + "." : ".";
  }
  /** Fails unless every byte was read. */
  end(): void {
    if (this.left) this.fail(`${this.left} bytes follow the last field`);
  }
}

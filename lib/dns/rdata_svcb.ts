/**
 * SVCB and HTTPS (RFC 9460): priority, target name and SvcParams. The
 * canonical form is what BIND's dig prints back from the wire: parameters in
 * ascending key order (the order the wire requires, §2.2), the `mandatory`
 * list sorted, `alpn` and generic values quoted, `ech` as base64, `keyNNNNN`
 * without a value written bare. Knot's kdig prints the same but leaves the
 * `alpn` list unquoted.
 */
import { fqdn, nameWire } from "./names.ts";
import type { Rdata } from "./rdata.ts";
import { ipv4Bytes, ipv6Bytes, ipv6Canonical, ipv6Text } from "./rdata_addr.ts";
import { base64, base64Bytes, concat, MAX_RDATA, type Parser, WireReader } from "./rdata_parser.ts";
import { quoteBytes, type Token, unescapeBytes } from "./tokens.ts";

/** SvcParamKeys 0–6 by name (RFC 9460 §14.3.2); others are `keyNNNNN`. */
const KEYS = ["mandatory", "alpn", "no-default-alpn", "port", "ipv4hint", "ech", "ipv6hint"];
const MANDATORY = 0;
const ALPN = 1;
const NO_DEFAULT_ALPN = 2;
/** Keys of later RFCs, written as keyNNNNN (as BIND prints them) but checked: 9461, 9540. */
const DOHPATH = 7;
const OHTTP = 8;
/** Key 65535 is reserved as "Invalid key" (RFC 9460 §14.3.2). */
const MAX_KEY = 65534;

function keyName(key: number): string {
  return KEYS[key] ?? `key${key}`;
}

/** The number of key `text` (a name of KEYS or keyNNNNN without leading zeros). */
function keyNumber(p: Parser, text: string): number {
  const known = KEYS.indexOf(text.toLowerCase());
  if (known >= 0) return known;
  if (text.toLowerCase() === "dohpath") return DOHPATH;
  const m = /^key(0|[1-9][0-9]{0,4})$/i.exec(text);
  if (!m || Number(m[1]) > MAX_KEY) {
    p.fail(`"${text}" is not a SvcParamKey (a name or key0 to key${MAX_KEY})`);
  }
  return Number(m[1]);
}

/**
 * dohpath (RFC 9461 §5): a relative URI Template (RFC 6570), UTF-8, starting
 * with "/", with an expression holding the variable "dns". BIND refuses a
 * message that carries anything else.
 */
function dohpath(p: Parser, v: Uint8Array): Uint8Array {
  let text = "";
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(v);
  } catch {
    p.fail("key7 (dohpath) is not UTF-8");
  }
  const vars = [...text.matchAll(/\{[+#./;?&]?([^{}]*)\}/g)]
    .flatMap((m) => m[1].split(",").map((x) => x.replace(/(\*|:[0-9]+)$/, "")));
  if (!text.startsWith("/") || !vars.includes("dns")) {
    p.fail(
      `key7 (dohpath) "${text}" is not a URI Template starting with "/" with a "dns" variable`,
    );
  }
  return v;
}

/** A value-list (RFC 9460 Appendix A.1): items split on commas, `\,` and `\\` inside an item. */
function valueList(p: Parser, key: number, v: Uint8Array): Uint8Array[] {
  const items: number[][] = [[]];
  for (let i = 0; i < v.length; i++) {
    if (v[i] === 0x2c) items.push([]);
    else if (v[i] === 0x5c && i + 1 < v.length) items[items.length - 1].push(v[++i]);
    else items[items.length - 1].push(v[i]);
  }
  if (items.some((it) => it.length === 0)) p.fail(`${keyName(key)} has an empty item`);
  return items.map((it) => new Uint8Array(it));
}

const latin1 = (b: Uint8Array) => String.fromCharCode(...b);

/** The wire value of `key` from its presentation bytes (null: written without "="). */
function encodeValue(p: Parser, key: number, v: Uint8Array | null): Uint8Array {
  const name = keyName(key);
  if (key === NO_DEFAULT_ALPN) {
    if (v !== null) p.fail("no-default-alpn takes no value");
    return new Uint8Array(0);
  }
  if (key === DOHPATH) return dohpath(p, v ?? new Uint8Array(0));
  if (key === OHTTP && v?.length) p.fail("key8 (ohttp, RFC 9540 §4) takes no value");
  if (key > 6) return v ?? new Uint8Array(0);
  if (v === null || v.length === 0) p.fail(`${name} needs a value`);
  if (key === 5) return base64Bytes(latin1(v)) ?? p.fail(`ech "${latin1(v)}" is not base64`);
  if (key === 3) {
    const t = latin1(v);
    if (!/^[0-9]{1,5}$/.test(t) || Number(t) > 65535) p.fail(`port "${t}" is not 0 to 65535`);
    return new Uint8Array([Number(t) >> 8, Number(t) & 255]);
  }
  const items = valueList(p, key, v);
  if (key === ALPN) {
    if (items.some((it) => it.length > 255)) p.fail("an alpn id is longer than 255 bytes");
    return concat(items.flatMap((it) => [new Uint8Array([it.length]), it]));
  }
  if (key === 4 || key === 6) {
    return concat(items.map((it) => {
      const t = latin1(it);
      const b = key === 4 ? ipv4Bytes(t) : ipv6Canonical(t) && ipv6Bytes(ipv6Canonical(t)!);
      if (!b) p.fail(`${name} "${t}" is not an IPv${key === 4 ? 4 : 6} address`);
      return b;
    }));
  }
  // mandatory: the keys it lists, in ascending order on the wire (§8).
  const keys = items.map((it) => keyNumber(p, latin1(it))).sort((a, b) => a - b);
  if (keys.includes(MANDATORY)) p.fail("mandatory cannot list itself");
  if (keys.some((k, i) => k === keys[i - 1])) p.fail("mandatory lists a key twice");
  return concat(keys.map((k) => new Uint8Array([k >> 8, k & 255])));
}

/** The presentation of one parameter from its wire value; fails on a value its key cannot hold. */
function present(r: WireReader, key: number, v: Uint8Array): string {
  const name = keyName(key);
  const bad = (): never => r.fail(`the ${name} value is malformed`);
  if (key > 6) return v.length ? `${name}=${quoteBytes(v)}` : name;
  if (key === NO_DEFAULT_ALPN) return v.length ? bad() : name;
  if (v.length === 0) bad();
  if (key === 3) return v.length === 2 ? `port=${(v[0] << 8) | v[1]}` : bad();
  if (key === 5) return `ech=${base64(v)}`;
  const items: string[] = [];
  if (key === ALPN) {
    const alpn = new WireReader(v, r.fail);
    while (alpn.left) {
      const id = alpn.charString("alpn id");
      if (id.length === 0) bad();
      items.push(latin1(id).replace(/[\\,]/g, "\\$&"));
    }
    const list = Uint8Array.from(items.join(","), (c) => c.charCodeAt(0));
    return `alpn=${quoteBytes(list)}`;
  }
  const size = key === 4 ? 4 : key === 6 ? 16 : 2;
  if (v.length % size) bad();
  for (let i = 0; i < v.length; i += size) {
    const b = v.subarray(i, i + size);
    if (key === 4) items.push(b.join("."));
    else if (key === 6) items.push(ipv6Text(b));
    else items.push(keyName((b[0] << 8) | b[1]));
  }
  return `${name}=${items.join(",")}`;
}

/** The canonical presentation of SVCB/HTTPS RDATA; fails on keys out of order and malformed values. */
export function svcbText(r: WireReader): string {
  const priority = r.u16("priority");
  const parts = [String(priority), r.name("target")];
  let last = -1;
  while (r.left) {
    const key = r.u16("SvcParamKey");
    if (key <= last) r.fail("the SvcParamKeys are not in strictly increasing order");
    last = key;
    parts.push(present(r, key, r.take(r.u16("SvcParamValue length"), "SvcParamValue")));
  }
  return parts.join(" ");
}

/** One `key[=value]` token (a quoted value may follow `key=` as its own token); null at the end. */
function nextParam(p: Parser): [number, Uint8Array | null] | null {
  if (p.i >= p.tokens.length) return null;
  const t: Token = p.next("parameter");
  if (t.quoted) p.fail(`"${t.text}" is a value without a key`);
  const eq = t.text.indexOf("=");
  const key = keyNumber(p, eq < 0 ? t.text : t.text.slice(0, eq));
  if (eq < 0) return [key, null];
  let raw = t.text.slice(eq + 1);
  if (raw === "" && p.tokens[p.i]?.quoted) raw = p.next("value").text;
  return [key, unescapeBytes(raw, p.field)];
}

export function parseSvcb(p: Parser): Rdata {
  const priority = p.int("priority", 65535);
  const target = p.name("target");
  const params = new Map<number, Uint8Array>();
  for (let kv = nextParam(p); kv; kv = nextParam(p)) {
    const [key, value] = kv;
    if (params.has(key)) p.fail(`${keyName(key)} is given twice`);
    params.set(key, encodeValue(p, key, value));
  }
  // §2.4.2: AliasMode records carry no SvcParams.
  if (priority === 0 && params.size) p.fail("priority 0 (AliasMode) takes no parameters");
  const mandatory = params.get(MANDATORY);
  for (let i = 0; mandatory && i < mandatory.length; i += 2) {
    const k = (mandatory[i] << 8) | mandatory[i + 1];
    if (!params.has(k)) p.fail(`mandatory lists ${keyName(k)}, which is not given`);
  }
  // §7.1.1: no-default-alpn without alpn would leave the service no protocol.
  if (params.has(NO_DEFAULT_ALPN) && !params.has(ALPN)) p.fail("no-default-alpn needs alpn");
  const parts: Uint8Array[] = [
    new Uint8Array([priority >> 8, priority & 255]),
    nameWire(fqdn(target)),
  ];
  for (const key of [...params.keys()].sort((a, b) => a - b)) {
    const v = params.get(key)!;
    if (v.length > MAX_RDATA) p.fail(`${keyName(key)} is longer than ${MAX_RDATA} bytes`);
    parts.push(new Uint8Array([key >> 8, key & 255, v.length >> 8, v.length & 255]), v);
  }
  const wire = concat(parts);
  if (wire.length > MAX_RDATA) p.fail(`data is longer than ${MAX_RDATA} bytes`);
  return { value: svcbText(new WireReader(wire, (why) => p.fail(why))), wire };
}

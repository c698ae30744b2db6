/**
 * Records that describe or point at hosts and services: HINFO (RFC 1035
 * §3.3.2, used for RFC 8482 ANY answers), RP and AFSDB (RFC 1183; AFSDB's
 * AFS use is deprecated by RFC 5864, the record stays valid), KX (RFC 2230)
 * and URI (RFC 7553). Each comes with its reader of the RDATA wire form.
 */
import { fqdn, nameWire } from "./names.ts";
import type { Rdata } from "./rdata.ts";
import { concat, MAX_RDATA, type Parser, type WireReader } from "./rdata_parser.ts";
import { quoteBytes, unescapeBytes } from "./tokens.ts";

const u16 = (n: number) => new Uint8Array([n >> 8, n & 255]);
const cs = (b: Uint8Array) => concat([new Uint8Array([b.length]), b]);

export function parseHinfo(p: Parser): Rdata {
  const cpu = p.bytes("CPU");
  const os = p.bytes("OS");
  return { value: `${quoteBytes(cpu)} ${quoteBytes(os)}`, wire: concat([cs(cpu), cs(os)]) };
}

export function hinfoText(r: WireReader): string {
  return `${quoteBytes(r.charString("CPU"))} ${quoteBytes(r.charString("OS"))}`;
}

/** RP: the responsible person's mailbox as a name, and a name with TXT about them; "." for none. */
export function parseRp(p: Parser): Rdata {
  const mbox = fqdn(p.name("mailbox"));
  const txt = fqdn(p.name("TXT name"));
  return { value: `${mbox} ${txt}`, wire: concat([nameWire(mbox), nameWire(txt)]) };
}

export function rpText(r: WireReader): string {
  return `${r.name("mailbox")} ${r.name("TXT name")}`;
}

/** AFSDB (subtype, host) and KX (preference, exchanger): a number and a name. */
function numberAndName(p: Parser, num: string, name: string): Rdata {
  const n = p.int(num, 65535);
  const host = p.name(name);
  return {
    value: `${n} ${fqdn(host)}`,
    wire: concat([u16(n), nameWire(fqdn(host))]),
  };
}

export function parseAfsdb(p: Parser): Rdata {
  // RFC 1183 defines subtypes 1 (AFS) and 2 (DCE); others are kept as given, as BIND does.
  return numberAndName(p, "subtype", "hostname");
}

export function parseKx(p: Parser): Rdata {
  return numberAndName(p, "preference", "exchanger");
}

export function numberAndNameText(r: WireReader): string {
  return `${r.u16("number")} ${r.name("name")}`;
}

/**
 * URI: priority, weight and the target URI, a quoted string that fills the
 * rest of the RDATA (not a character-string: no length byte, no 255 limit).
 * RFC 7553 §4.4 asks for a URI of RFC 3986: a scheme, then printable ASCII.
 */
export function parseUri(p: Parser): Rdata {
  const priority = p.int("priority", 65535);
  const weight = p.int("weight", 65535);
  const t = p.next("target");
  if (!t.quoted) p.fail(`target "${t.text}" must be a quoted string`);
  const target = unescapeBytes(t.text, p.field);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(String.fromCharCode(...target.subarray(0, 64)));
  if (!scheme || target.some((b) => b < 0x21 || b > 0x7e)) {
    p.fail(`target ${quoteBytes(target)} is not a URI (a scheme, then printable ASCII)`);
  }
  if (target.length > MAX_RDATA - 4) p.fail(`target is longer than ${MAX_RDATA - 4} bytes`);
  return {
    value: `${priority} ${weight} ${quoteBytes(target)}`,
    wire: concat([u16(priority), u16(weight), target]),
  };
}

export function uriText(r: WireReader): string {
  return `${r.u16("priority")} ${r.u16("weight")} ${quoteBytes(r.rest())}`;
}

/**
 * LOC (RFC 1876): latitude, longitude, altitude, and the size and precisions
 * of the location. The canonical form is what BIND prints back from the wire
 * (every field written, seconds to the thousandth, altitude to the centimetre,
 * sizes in metres): `52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m`.
 */
import type { Rdata } from "./rdata.ts";
import { type Parser, WireReader } from "./rdata_parser.ts";

/** 2^31: the equator and the prime meridian on the wire. */
const EQUATOR = 2 ** 31;
/** Altitudes are stored from 100 000 m below the WGS 84 spheroid, in centimetres. */
const ALT_BASE = 10_000_000;
const MAS_PER_DEGREE = 3_600_000;
const DEFAULTS = [100, 1_000_000, 1_000]; // size 1 m, horizontal 10 000 m, vertical 10 m (cm)
const SIZE_NAMES = ["size", "horizontal precision", "vertical precision"];

/** A number with up to `decimals` decimals, in units of 10^-decimals, or null. */
function fixed(text: string, decimals: number, signed = false): number | null {
  const m = new RegExp(`^(${signed ? "-?" : ""})([0-9]{1,10})(?:\\.([0-9]{1,${decimals}}))?$`)
    .exec(text);
  if (!m) return null;
  const n = Number(m[2]) * 10 ** decimals + Number((m[3] ?? "").padEnd(decimals, "0"));
  return m[1] ? -n : n;
}

/** Degrees, optional minutes and seconds, then one of `hemispheres`: milliarcseconds from the origin. */
function angle(p: Parser, what: string, maxDegrees: number, hemispheres: string): number {
  const parts: string[] = [];
  let hemi = "";
  while (!hemi) {
    const t = p.next(`${what} hemisphere (${hemispheres.split("").join(" or ")})`).text;
    if (t.length === 1 && hemispheres.includes(t.toUpperCase())) hemi = t.toUpperCase();
    else parts.push(t);
  }
  const [d, m = "0", s = "0"] = parts;
  const deg = /^[0-9]{1,3}$/.test(d ?? "") ? Number(d) : NaN;
  const min = /^[0-9]{1,2}$/.test(m) ? Number(m) : NaN;
  const ms = fixed(s, 3);
  if (parts.length > 3 || !(deg <= maxDegrees) || !(min < 60) || ms === null || ms >= 60_000) {
    p.fail(`${what} "${parts.join(" ")}" is not degrees (0-${maxDegrees}), minutes and seconds`);
  }
  const total = deg * MAS_PER_DEGREE + min * 60_000 + ms;
  if (total > maxDegrees * MAS_PER_DEGREE) p.fail(`${what} is more than ${maxDegrees} degrees`);
  return hemi === hemispheres[1] ? -total : total;
}

/** A size or precision in centimetres as its mantissa/exponent byte, or why it cannot be one. */
function sizeByte(cm: number): number | string {
  if (cm === 0) return 0;
  let exp = 0;
  while (cm % 10 === 0 && cm >= 10) {
    cm /= 10;
    exp++;
  }
  if (cm > 9) return "is not one digit times a power of ten (RFC 1876 stores no more)";
  if (exp > 9) return "is more than 90000000m";
  return (cm << 4) | exp;
}

function sizeText(b: number): string {
  const man = b >> 4;
  const exp = b & 15;
  return exp >= 2 ? `${man * 10 ** (exp - 2)}m` : `0.${String(man * 10 ** exp).padStart(2, "0")}m`;
}

function angleText(v: number, hemispheres: string): string {
  const rel = v - EQUATOR;
  const abs = Math.abs(rel);
  const d = Math.floor(abs / MAS_PER_DEGREE);
  const m = Math.floor((abs % MAS_PER_DEGREE) / 60_000);
  const s = abs % 60_000;
  const frac = String(s % 1000).padStart(3, "0");
  return `${d} ${m} ${Math.floor(s / 1000)}.${frac} ${hemispheres[rel < 0 ? 1 : 0]}`;
}

/** The canonical presentation of LOC RDATA; fails on another version or a field out of range. */
export function locText(r: WireReader): string {
  if (r.u8("version") !== 0) r.fail("only version 0 is defined (RFC 1876)");
  const sizes = [r.u8("size"), r.u8("horizontal precision"), r.u8("vertical precision")];
  if (sizes.some((b) => (b >> 4) > 9 || (b & 15) > 9)) r.fail("a size or precision is malformed");
  const lat = r.u32("latitude");
  const lon = r.u32("longitude");
  const alt = r.u32("altitude") - ALT_BASE;
  if (Math.abs(lat - EQUATOR) > 90 * MAS_PER_DEGREE) r.fail("the latitude is beyond a pole");
  if (Math.abs(lon - EQUATOR) > 180 * MAS_PER_DEGREE) r.fail("the longitude is beyond 180 degrees");
  const altText = `${alt < 0 ? "-" : ""}${Math.floor(Math.abs(alt) / 100)}.${
    String(Math.abs(alt) % 100).padStart(2, "0")
  }m`;
  return [angleText(lat, "NS"), angleText(lon, "EW"), altText, ...sizes.map(sizeText)].join(" ");
}

export function parseLoc(p: Parser): Rdata {
  const lat = angle(p, "latitude", 90, "NS");
  const lon = angle(p, "longitude", 180, "EW");
  const altTok = p.next("altitude").text;
  const alt = fixed(altTok.replace(/m$/i, ""), 2, true);
  if (alt === null || alt < -ALT_BASE || alt + ALT_BASE > 0xffffffff) {
    p.fail(`altitude "${altTok}" is not metres from -100000.00 to 42849672.95`);
  }
  const sizes = DEFAULTS.map((def, i) => {
    if (p.i >= p.tokens.length) return sizeByte(def) as number;
    const t = p.next(SIZE_NAMES[i]).text;
    const cm = fixed(t.replace(/m$/i, ""), 2);
    const b = cm === null ? "is not metres with up to two decimals" : sizeByte(cm);
    if (typeof b === "string") p.fail(`${SIZE_NAMES[i]} "${t}" ${b}`);
    return b;
  });
  const wire = new Uint8Array(16);
  const view = new DataView(wire.buffer);
  wire.set([0, ...sizes]);
  view.setUint32(4, EQUATOR + lat);
  view.setUint32(8, EQUATOR + lon);
  view.setUint32(12, alt + ALT_BASE);
  return { value: locText(new WireReader(wire, (why) => p.fail(why))), wire };
}

/**
 * Dynamic update messages (RFC 2136) for the fuzz tests, written byte by
 * byte: dns-packet cannot write the classes NONE and ANY with empty RDATA
 * that prerequisites and deletions use. None of them changes the zone more
 * than once, so replaying them keeps the zone still.
 */
import { nameWire } from "../../lib/dns/names.ts";

const C_IN = 1;
const C_NONE = 254;
const C_ANY = 255;

function rr(name: string, type: number, cls: number, ttl: number, rdata: number[]): number[] {
  return [
    ...nameWire(name),
    type >> 8,
    type & 255,
    cls >> 8,
    cls & 255,
    ttl >>> 24,
    (ttl >> 16) & 255,
    (ttl >> 8) & 255,
    ttl & 255,
    rdata.length >> 8,
    rdata.length & 255,
    ...rdata,
  ];
}

function update(id: number, zone: string, prereqs: number[][], updates: number[][]): Uint8Array {
  const header = [id >> 8, id & 255, 5 << 3, 0, 0, 1, 0, prereqs.length, 0, updates.length, 0, 0];
  return new Uint8Array([
    ...header,
    ...nameWire(zone),
    0,
    6,
    0,
    1,
    ...prereqs.flat(),
    ...updates.flat(),
  ]);
}

/** Unsigned updates of `zone`: an idempotent addition, failing prerequisites, a no-op deletion, a name outside. */
export function updateSeeds(zone: string): Uint8Array[] {
  const a = (ip: number[]) => ip;
  return [
    update(11, zone, [rr(`www.${zone}`, 255, C_ANY, 0, [])], [
      rr(`dyn.${zone}`, 1, C_IN, 60, a([192, 0, 2, 50])),
      rr(`dyn.${zone}`, 16, C_IN, 60, [3, 0x61, 0x62, 0x63]),
    ]),
    update(12, zone, [rr(`www.${zone}`, 1, C_NONE, 0, [])], [rr(`x.${zone}`, 255, C_ANY, 0, [])]),
    update(13, zone, [rr(`www.${zone}`, 1, C_IN, 0, a([192, 0, 2, 99]))], []),
    update(14, zone, [], [
      rr(`gone.${zone}`, 1, C_NONE, 0, a([192, 0, 2, 1])),
      rr(`gone.${zone}`, 5, C_ANY, 0, []),
      rr(`alias.${zone}`, 15, C_NONE, 0, [0, 10, 0xc0, 12]),
    ]),
    update(15, zone, [rr("example.org", 255, C_ANY, 0, [])], []),
  ];
}

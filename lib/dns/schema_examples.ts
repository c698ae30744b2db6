/**
 * What the DNS API's document shows beyond types and bounds: the name
 * patterns the service checks (names.ts), and examples of values whose rules
 * JSON Schema cannot state (record data per type, zone files, SOA timers that
 * must agree with each other). Examples are written for the zone
 * `example.com`; each is accepted by the service as it stands.
 */
import type { RECORD_TYPES } from "./rdata.ts";
import type { SoaTimers } from "./soa.ts";

/** A label as names.ts takes it (letters, digits, "_" and "-"), then a top label starting with a letter. */
const NAME = "([A-Za-z0-9_-]{1,63}\\.)*[A-Za-z][A-Za-z0-9-]{0,62}\\.?";

/** A zone name: no wildcard, trailing dot optional. */
export const ZONE_NAME_PATTERN = `^${NAME}$`;

/** A label of an owner, which may carry RFC 1035 escapes (`x\.y`, `\DDD`): any byte. */
const ESCAPED_LABEL = "([A-Za-z0-9_-]|\\\\[0-9]{3}|\\\\[^0-9])+";

/** A record owner: "@" for the apex, or a name with an optional wildcard label. */
export const DOMAIN_PATTERN = `^(@|(\\*\\.)?(${ESCAPED_LABEL}\\.)*[A-Za-z][A-Za-z0-9-]{0,62}\\.?)$`;

/** Timer examples that agree pairwise (retry <= refresh, expire >= refresh + retry). */
export const TIMER_EXAMPLES: Record<keyof SoaTimers, number[]> = {
  refresh: [3_600, 7_200],
  retry: [900, 600],
  expire: [1_209_600, 604_800],
  minimum: [300, 0],
  default_ttl: [3_600, 300],
};

const HEX32 = "3c5e0b1a4f2d6e8c9a7b5d3f1e2c4a6b8d0f2e4c6a8b0d2f4e6c8a0b2d4f6e8c";

/** Record data of each type a record can be created as (the SOA comes from the zone). */
const VALUE_EXAMPLES: Record<Exclude<typeof RECORD_TYPES[number], "SOA">, string[]> = {
  A: ["192.0.2.10", "198.51.100.7"],
  AAAA: ["2001:db8::10"],
  CAA: ['0 issue "letsencrypt.org"'],
  CNAME: ["target.example.net."],
  DNAME: ["example.net."],
  DS: [`12345 13 2 ${HEX32}`],
  MX: ["10 mail.example.net."],
  NAPTR: ['100 10 "u" "E2U+sip" "!^.*$!sip:info@example.net!" .'],
  NS: ["ns1.example.net."],
  PTR: ["host.example.net."],
  SMIMEA: [`3 1 1 ${HEX32}`],
  SPF: ['"v=spf1 -all"'],
  SRV: ["10 5 5060 sip.example.net."],
  SSHFP: [`1 2 ${HEX32}`],
  TLSA: [`3 1 1 ${HEX32}`],
  TXT: ["hello world", '"v=spf1 -all"'],
  AFSDB: ["1 afsdb.example.net."],
  CDNSKEY: ["0 3 0 AA==", "257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4="],
  CDS: ["0 0 0 00", `12345 13 2 ${HEX32}`],
  CERT: ["3 0 0 mQINBGF0ZXN0"],
  HINFO: ['"PC" "Linux"'],
  HTTPS: ['1 . alpn="h2,h3" ipv4hint=192.0.2.10', "0 svc.example.net."],
  KX: ["10 kx.example.net."],
  LOC: ["52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m"],
  OPENPGPKEY: ["mQINBGF0ZXN0"],
  RP: ["hostmaster.example.com. info.example.com."],
  SVCB: ['1 svc.example.net. alpn="h2" port=8443'],
  URI: ['10 1 "https://www.example.com/"'],
};

/**
 * One JSON Schema branch per record type, each with examples of its data: a
 * record's `value` is read by the rules of its `type`.
 */
export function createExamples(): Record<string, unknown>[] {
  return Object.entries(VALUE_EXAMPLES).map(([type, values]) => ({
    properties: { type: { const: type }, value: { examples: values } },
  }));
}

/** A zone file for the zone of the path (no $ORIGIN: names are relative to it). */
export const ZONE_TEXT_EXAMPLE = [
  "$TTL 3600",
  "@ IN SOA ns1.example.net. hostmaster.example.com. 2024010101 3600 900 1209600 300",
  "@ IN NS ns1.example.net.",
  "www 300 IN A 192.0.2.10",
  "",
].join("\n");

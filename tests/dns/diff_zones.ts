/**
 * The differential suite's zones, as master-file text that all three servers
 * load. Each zone has a base part (records Palisade stores today) and
 * optional groups: records Palisade may refuse today (DNAME, SVCB/HTTPS,
 * other types, a `*` inside a name). A group is offered to Palisade first and
 * served by all three only when Palisade takes it, so the suite runs today
 * and covers each group as soon as Palisade accepts it.
 *
 * One record per line, `owner [ttl] TYPE rdata`, owners relative to the
 * zone, so that the query generator can read names and types back.
 */

export interface OptionalGroup {
  id: string;
  /** Record lines (owner relative to the zone). */
  lines: string[];
}

export interface DiffZone {
  name: string;
  /** `$ORIGIN`, `$TTL`, SOA and every record Palisade stores today. */
  base: string[];
  optional: OptionalGroup[];
}

const hex = (seed: number, bytes: number) =>
  Array.from(
    { length: bytes },
    (_, i) => ((seed * 31 + i * 17) & 255).toString(16).padStart(2, "0"),
  )
    .join("").toUpperCase();

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

/** 300 bytes of text: two strings, the way a long DKIM key is written. */
const LONG_TXT = `"${"k".repeat(255)}" "${"m".repeat(45)}"`;
/** About 3 KB of text in one record: never fits UDP, always TCP. */
const BIG_TXT = range(12, (i) => `"${String.fromCharCode(97 + i).repeat(250)}"`).join(" ");

const MAIN: DiffZone = {
  name: "diff.test",
  base: [
    "$ORIGIN diff.test.",
    "$TTL 3600",
    "@ 3600 SOA ns1.diff.test. hostmaster.diff.test. 2026010101 3600 900 1209600 300",
    "@ 3600 NS ns1.diff.test.",
    "@ 3600 NS ns2.diff.test.",
    "@ 3600 NS ns.other.test.",
    "ns1 A 192.0.2.53",
    "ns1 AAAA 2001:db8::53",
    "ns2 A 192.0.2.54",
    // Apex data.
    "@ A 192.0.2.1",
    "@ AAAA 2001:db8::1",
    "@ MX 10 mail.diff.test.",
    "@ MX 20 mx.other.test.",
    "@ MX 30 mail.example.net.",
    '@ TXT "v=spf1 mx -all"',
    '@ CAA 0 issue "letsencrypt.org"',
    '@ CAA 128 tbs "unknown"',
    "mail A 192.0.2.25",
    "mail AAAA 2001:db8::25",
    "www A 192.0.2.80",
    "www A 192.0.2.81",
    "www AAAA 2001:db8::80",
    "short 60 A 192.0.2.5",
    "zero 0 A 192.0.2.9",
    // TXT: long, multi-string, several records, escapes, empty, too big for UDP.
    `long TXT ${LONG_TXT}`,
    'multi TXT "first" "second" "third with spaces"',
    'multi TXT "another record"',
    'escaped TXT "quote \\" backslash \\\\ byte \\200 end"',
    'empty TXT ""',
    `big TXT ${BIG_TXT}`,
    // Large RRsets: 28 A records fit 512 bytes only without the authority NS, 40 pass 512
    // bytes, 120 pass 1232; the TXT fits 1232 only without the authority NS.
    ...range(28, (i) => `many28 A 198.51.100.${i + 101}`),
    ...range(40, (i) => `many40 A 198.51.100.${i + 1}`),
    `fit1232 TXT ${range(5, (i) => `"${String.fromCharCode(110 + i).repeat(225)}"`).join(" ")}`,
    ...range(120, (i) => `many A 203.0.113.${i + 1}`),
    ...range(30, (i) => `manyaaaa AAAA 2001:db8:1::${(i + 1).toString(16)}`),
    // CNAME chains: in the zone, out of it, into the other local zone, dangling, looping.
    "alias CNAME www.diff.test.",
    "chain1 CNAME chain2.diff.test.",
    "chain2 CNAME chain3.diff.test.",
    "chain3 CNAME www.diff.test.",
    "out CNAME www.example.net.",
    "cross CNAME www.other.test.",
    "crosschain CNAME alias.other.test.",
    "roundtrip CNAME back.other.test.",
    "dangling CNAME missing.diff.test.",
    "loop1 CNAME loop2.diff.test.",
    "loop2 CNAME loop1.diff.test.",
    "tomany CNAME many.diff.test.",
    "tomx CNAME mail.diff.test.",
    "todeleg CNAME host.deleg.diff.test.",
    "tochild CNAME www.child.diff.test.",
    // Wildcards: plain, with CNAME, an existing name below, empty non-terminals.
    "*.wild A 192.0.2.99",
    '*.wild TXT "wildcard"',
    "*.wild MX 10 mail.diff.test.",
    "sub.wild A 192.0.2.98",
    "*.cwild CNAME www.diff.test.",
    "*.cwildout CNAME www.example.net.",
    "*.cwildother CNAME www.other.test.",
    "a.b.ewild A 192.0.2.97",
    "*.ewild A 192.0.2.96",
    "*.deep.x.ent2 AAAA 2001:db8::96",
    // Delegations: in-zone and out-of-zone glue, DS, a locally hosted child.
    "deleg NS ns1.deleg.diff.test.",
    "deleg NS ns.other.test.",
    "deleg NS ns.example.net.",
    `deleg DS 12345 13 2 ${hex(1, 32)}`,
    "ns1.deleg A 192.0.2.200",
    "ns1.deleg AAAA 2001:db8::200",
    "outdeleg NS ns1.example.net.",
    "outdeleg NS ns2.example.net.",
    "sibdeleg NS ns1.deleg.diff.test.",
    "child NS ns1.child.diff.test.",
    `child DS 54321 8 2 ${hex(2, 32)}`,
    "ns1.child A 192.0.2.210",
    // Empty non-terminals.
    'a.b.c.ent TXT "deep"',
    "x.ent A 192.0.2.33",
    // Every other type Palisade stores.
    "_sip._tcp SRV 10 60 5060 sip.diff.test.",
    "_sip._tcp SRV 20 0 5060 sip.other.test.",
    "_sip._tcp SRV 30 0 5060 sip.example.net.",
    "sip A 192.0.2.60",
    "sip AAAA 2001:db8::60",
    "ptr PTR www.diff.test.",
    "nullmx MX 0 .",
    'spf SPF "v=spf1 -all"',
    `sshfp SSHFP 1 1 ${hex(3, 20)}`,
    `sshfp SSHFP 4 2 ${hex(4, 32)}`,
    `_443._tcp.www TLSA 3 1 1 ${hex(5, 32)}`,
    `_25._tcp.mail TLSA 2 0 2 ${hex(6, 64)}`,
    `${"c".repeat(56)}._smimecert SMIMEA 3 0 1 ${hex(7, 32)}`,
    'naptr NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.diff.test.',
    'naptr NAPTR 102 10 "U" "E2U+sip" "!^.*$!sip:info@diff.test!" .',
    "private TYPE65280 \\# 4 DEADBEEF",
    "private TYPE65281 \\# 0",
    // One RRset with two TTLs (RFC 2181 §5.2 deprecates it; servers differ).
    "ttlmix 300 A 192.0.2.7",
    "ttlmix 600 A 192.0.2.8",
  ],
  optional: [
    {
      id: "dname",
      lines: [
        "dname DNAME other.test.",
        "dnamein DNAME wild.diff.test.",
      ],
    },
    {
      id: "svcb-https",
      lines: [
        "@ HTTPS 1 . alpn=h2,h3",
        "svc SVCB 1 svctarget.diff.test. port=8443",
        "svc SVCB 2 . alpn=h2 ipv4hint=192.0.2.44",
        "_8443._https.www HTTPS 0 www.diff.test.",
        "svctarget A 192.0.2.44",
        "svctarget AAAA 2001:db8::44",
      ],
    },
    { id: "hinfo", lines: ['hinfo HINFO "PC" "Linux"'] },
    { id: "rp", lines: ["rp RP hostmaster.diff.test. ent.diff.test."] },
    { id: "loc", lines: ["loc LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m"] },
    { id: "uri", lines: ['_http._tcp URI 10 1 "https://www.diff.test/"'] },
    { id: "cert", lines: ["cert CERT 1 0 0 AQID"] },
    { id: "openpgpkey", lines: ["openpgpkey OPENPGPKEY AQIDBAUGBwgJ"] },
    { id: "afsdb", lines: ["afsdb AFSDB 1 ns1.diff.test."] },
    {
      // RFC 4592 §2.2.2: a wildcard owner with a name below it.
      id: "below-wildcard",
      lines: ["*.bwild A 192.0.2.95", "host.*.bwild A 192.0.2.94"],
    },
  ],
};

const OTHER: DiffZone = {
  name: "other.test",
  base: [
    "$ORIGIN other.test.",
    "$TTL 7200",
    "@ 7200 SOA ns.other.test. admin.other.test. 42 7200 1800 604800 600",
    "@ 7200 NS ns.other.test.",
    "@ 7200 NS ns1.diff.test.",
    "ns A 192.0.2.153",
    "www A 192.0.2.180",
    "www AAAA 2001:db8::180",
    "alias CNAME www.other.test.",
    "back CNAME www.diff.test.",
    "sip A 192.0.2.161",
    "mx A 192.0.2.125",
    "*.w CNAME alias.other.test.",
    'empty.sub TXT "x"',
  ],
  optional: [],
};

const CHILD: DiffZone = {
  name: "child.diff.test",
  base: [
    "$ORIGIN child.diff.test.",
    "$TTL 300",
    "@ 300 SOA ns1.child.diff.test. hostmaster.child.diff.test. 7 3600 900 1209600 60",
    "@ 300 NS ns1.child.diff.test.",
    "ns1 A 192.0.2.210",
    "www A 192.0.2.211",
    "up CNAME www.diff.test.",
  ],
  optional: [{ id: "cds", lines: [`@ CDS 54321 8 2 ${hex(8, 32)}`] }],
};

export const DIFF_ZONES: DiffZone[] = [MAIN, OTHER, CHILD];

/** The zone text with the optional groups named in `groups`, each under a marker comment. */
export function zoneText(z: DiffZone, groups: ReadonlySet<string>): string {
  const out = [...z.base];
  for (const g of z.optional) {
    if (!groups.has(g.id)) continue;
    out.push(`; optional group "${g.id}": served only while Palisade accepts it`, ...g.lines);
  }
  return out.join("\n") + "\n";
}

/** Absolute owner names and types of a zone text's records (lines as this module writes them). */
export function ownersAndTypes(z: DiffZone, text: string): { names: string[]; types: string[] } {
  const names = new Set<string>([z.name]);
  const types = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("$") || line.startsWith(";")) continue;
    const parts = line.split(/\s+/);
    const owner = parts[0] === "@" ? z.name : `${parts[0]}.${z.name}`;
    names.add(owner);
    const type = /^\d+$/.test(parts[1]) ? parts[2] : parts[1];
    types.add(type);
  }
  return { names: [...names], types: [...types] };
}

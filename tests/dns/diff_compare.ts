/**
 * Reads a reply into the parts the differential suite compares, each as a
 * string: whether a reply came, rcode (with the OPT's extended bits),
 * opcode and the AA/TC/RA flags, the question echo, the three sections as
 * RRsets with TTLs, and the OPT record (presence, UDP size, DO, version,
 * option codes, EDE info codes). What must not count is normalised away:
 * the message ID, RRset order within a section, record order within an
 * RRset, owner name case (the question keeps its case: it is an echo).
 */
import { Buffer } from "node:buffer";
import {
  type DataRecord,
  type DecodedPacket,
  dnsPacket,
  type OptRecord,
} from "../../lib/dns/packet.ts";

export const FIELDS = [
  "reply",
  "rcode",
  "flags",
  "question",
  "answer",
  "authority",
  "additional",
  "opt",
] as const;
export type Field = typeof FIELDS[number];

export interface Norm {
  parts: Record<Field, string>;
  /** The decoded message, when there is one. */
  msg: DecodedPacket | null;
  /** Bytes of the reply (all messages of a transfer). */
  size: number;
}

const RCODE_NAMES = [
  "NOERROR",
  "FORMERR",
  "SERVFAIL",
  "NXDOMAIN",
  "NOTIMP",
  "REFUSED",
  "YXDOMAIN",
  "YXRRSET",
  "NXRRSET",
  "NOTAUTH",
  "NOTZONE",
];

export function rcodeName(n: number): string {
  return n === 16 ? "BADVERS" : RCODE_NAMES[n] ?? `RCODE${n}`;
}

const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Fields of dns-packet's decoded data that are domain names (compared without case). */
const NAME_KEYS = new Set(["exchange", "target", "mname", "rname", "replacement"]);

/**
 * Record data as stable text: byte strings as hex, objects with sorted keys,
 * names lowercased (a name compressed against the question takes its case).
 */
function dataText(v: unknown, isName = false): string {
  if (v instanceof Uint8Array) return hexOf(v);
  if (Array.isArray(v)) return `[${v.map((x) => dataText(x)).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${
      Object.keys(o).sort().map((k) => `${k}:${dataText(o[k], NAME_KEYS.has(k))}`).join(",")
    }}`;
  }
  if (isName && typeof v === "string") return JSON.stringify(v.toLowerCase());
  return JSON.stringify(v) ?? "undefined";
}

/** One line per RRset (owner lowercased), RRsets and their records sorted. */
export function sectionText(records: DataRecord[]): string {
  const sets = new Map<string, { ttls: Set<number>; data: string[] }>();
  for (const r of records) {
    const flush = (r as { flush?: boolean }).flush ? " flush" : "";
    const key = `${r.name.toLowerCase() || "."} ${r.class}${flush} ${r.type}`;
    const s = sets.get(key) ?? { ttls: new Set(), data: [] };
    s.ttls.add(r.ttl ?? 0);
    // A bare string is a name (CNAME, NS, PTR, DNAME); text comes as byte strings.
    s.data.push(dataText(r.data, true));
    sets.set(key, s);
  }
  return [...sets].map(([key, s]) =>
    `${key} ttl=${[...s.ttls].sort((a, b) => a - b).join("/")} ${s.data.sort().join(" | ")}`
  ).sort().join("\n");
}

function optText(opt: OptRecord | undefined): string {
  if (!opt) return "none";
  const options = (opt.options ?? []) as { code: number; data?: Uint8Array }[];
  const codes = options.map((o) =>
    o.code === 15 && o.data && o.data.length >= 2
      ? `ede=${(o.data[0] << 8) | o.data[1]}`
      : `option=${o.code}`
  ).sort();
  return [
    `size=${opt.udpPayloadSize}`,
    opt.flag_do ? "do" : "nodo",
    `version=${opt.ednsVersion ?? 0}`,
    ...codes,
  ].join(" ");
}

function empty(reply: string): Record<Field, string> {
  const parts = {} as Record<Field, string>;
  for (const f of FIELDS) parts[f] = "";
  parts.reply = reply;
  return parts;
}

/**
 * The comparable parts of `reply` (null: no reply). A transfer's later
 * messages add their answer records to the first message's: how a server
 * splits a transfer into messages does not count.
 */
export function normalise(reply: Uint8Array[] | null): Norm {
  if (reply === null) return { parts: empty("none"), msg: null, size: 0 };
  const size = reply.reduce((n, m) => n + m.length, 0);
  let msg: DecodedPacket;
  let at = 0;
  try {
    msg = dnsPacket.decode(Buffer.from(reply[0]));
    for (at = 1; at < reply.length; at++) {
      msg.answers.push(...dnsPacket.decode(Buffer.from(reply[at])).answers);
    }
  } catch {
    // Not decodable: compared as the bytes after the ID.
    const parts = empty("undecodable");
    parts.question = `message ${at}: ${hexOf(reply[at].subarray(2))}`;
    return { parts, msg: null, size };
  }
  const opts = msg.additionals.filter((r) => r.type === "OPT") as OptRecord[];
  const others = msg.additionals.filter((r) => r.type !== "OPT") as DataRecord[];
  const ext = opts[0]?.extendedRcode ?? 0;
  const flags = msg.flags;
  return {
    msg,
    size,
    parts: {
      reply: msg.type === "response" ? "response" : "query",
      rcode: rcodeName((ext << 4) | (flags & 0xf)),
      flags: [
        `opcode=${(flags >> 11) & 0xf}`,
        flags & 0x400 ? "aa" : "",
        flags & 0x200 ? "tc" : "",
        flags & 0x80 ? "ra" : "",
      ].filter(Boolean).join(" "),
      question: msg.questions.map((q) => `${q.name} ${q.type} ${q.class}`).join("\n"),
      answer: sectionText(msg.answers as DataRecord[]),
      authority: sectionText(msg.authorities as DataRecord[]),
      additional: sectionText(others),
      opt: opts.length > 1 ? `${opts.length} OPT` : optText(opts[0]),
    },
  };
}

/** The fields in which `a` and `b` differ. */
export function differing(a: Norm, b: Norm): Field[] {
  return FIELDS.filter((f) => a.parts[f] !== b.parts[f]);
}

/** The RRset lines of a section of `n`. */
export function rrsets(n: Norm, f: "answer" | "authority" | "additional"): string[] {
  return n.parts[f] ? n.parts[f].split("\n") : [];
}

/** `n`'s parts named in `fields`, for a report (each cut at 300 characters). */
export function show(n: Norm, fields: readonly Field[]): string {
  const cut = (s: string) => s.length > 300 ? `${s.slice(0, 300)}…` : s;
  return fields.map((f) => `${f}: ${cut(n.parts[f].replaceAll("\n", " ; ")) || "(empty)"}`).join(
    "\n    ",
  );
}

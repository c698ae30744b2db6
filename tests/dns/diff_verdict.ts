/**
 * Judges the differential suite's exchanges: NSD and Knot are the oracles.
 * Where they disagree the exchange is not judged; where they agree,
 * Palisade's answer is identical, or differs in a way the allow-list
 * accepts (docs/dns.md, "Differential suite"), or in a known gap (an issue
 * item still open), or it is a failure. Prints the shares and examples.
 */
import type { Transport } from "./diff_client.ts";
import { differing, type Field, type Norm, show } from "./diff_compare.ts";
import type { DiffQuery } from "./diff_queries.ts";

export interface Case {
  q: DiffQuery;
  transport: Transport;
  nsd: Norm;
  knot: Norm;
  palisade: Norm;
  /** Fields in which Palisade differs from the (agreeing) oracles. */
  diff: Field[];
}

/** A difference that is accepted (allow-list) or counted but not failed (known gap). */
export interface Exception {
  id: string;
  /** Allow-list: the RFC and why Palisade's answer is as good or better. Known gap: the issue item. */
  ref: string;
  matches(c: Case): boolean;
}

export interface Disagreement {
  count: number;
  palisadeLikeNsd: number;
  palisadeLikeKnot: number;
  example: Case;
}

export type Verdict = "identical" | "unjudged" | "allowed" | "gap" | "failure";

export interface Tally {
  total: number;
  counts: Record<Verdict, number>;
  /** Per allow-list entry or known gap: count and the first case. */
  byException: Map<string, { count: number; example: Case }>;
  failures: Case[];
  /** Failures by signature: transport, differing fields, the oracles' and Palisade's rcode. */
  failureKinds: Map<string, number>;
  /** Unjudged cases by the fields NSD and Knot disagree on. */
  disagreements: Map<string, Disagreement>;
  /**
   * Unjudged cases where Palisade differs from both in a field NSD and Knot
   * agree on: not failed (the brief judges whole exchanges), printed as leads.
   */
  offAgreed: Map<string, { count: number; example: Case }>;
}

export function newTally(): Tally {
  return {
    total: 0,
    counts: { identical: 0, unjudged: 0, allowed: 0, gap: 0, failure: 0 },
    byException: new Map(),
    failures: [],
    failureKinds: new Map(),
    disagreements: new Map(),
    offAgreed: new Map(),
  };
}

/** Judges one exchange into `t`. */
export function judge(
  t: Tally,
  q: DiffQuery,
  transport: Transport,
  nsd: Norm,
  knot: Norm,
  palisade: Norm,
  lists: { allow: Exception[]; gaps: Exception[] },
): Verdict {
  t.total++;
  const oracles = differing(nsd, knot);
  if (oracles.length) {
    const key = oracles.join("+");
    const d = t.disagreements.get(key) ??
      {
        count: 0,
        palisadeLikeNsd: 0,
        palisadeLikeKnot: 0,
        example: { q, transport, nsd, knot, palisade, diff: oracles },
      };
    d.count++;
    if (differing(nsd, palisade).length === 0) d.palisadeLikeNsd++;
    if (differing(knot, palisade).length === 0) d.palisadeLikeKnot++;
    t.disagreements.set(key, d);
    const off = differing(nsd, palisade).filter((f) => !oracles.includes(f));
    if (off.length) {
      const k = off.join("+");
      const o = t.offAgreed.get(k) ??
        { count: 0, example: { q, transport, nsd, knot, palisade, diff: off } };
      o.count++;
      t.offAgreed.set(k, o);
    }
    t.counts.unjudged++;
    return "unjudged";
  }
  const diff = differing(nsd, palisade);
  if (diff.length === 0) {
    t.counts.identical++;
    return "identical";
  }
  const c: Case = { q, transport, nsd, knot, palisade, diff };
  for (const [verdict, list] of [["allowed", lists.allow], ["gap", lists.gaps]] as const) {
    const hit = list.find((e) => e.matches(c));
    if (!hit) continue;
    const e = t.byException.get(hit.id) ?? { count: 0, example: c };
    e.count++;
    t.byException.set(hit.id, e);
    t.counts[verdict]++;
    return verdict;
  }
  t.counts.failure++;
  const kind = `${transport} ${diff.join("+")} (NSD/Knot ${nsd.parts.rcode || nsd.parts.reply}, ` +
    `Palisade ${palisade.parts.rcode || palisade.parts.reply})`;
  t.failureKinds.set(kind, (t.failureKinds.get(kind) ?? 0) + 1);
  if (t.failures.length < 5000) t.failures.push(c);
  return "failure";
}

const pct = (n: number, d: number) => d === 0 ? "n/a" : `${(100 * n / d).toFixed(2)} %`;

/** One case for a report: the query, the oracles' answer and Palisade's, in the differing fields. */
export function describeCase(c: Case): string {
  return [
    `  ${c.transport.toUpperCase()} ${c.q.desc}`,
    `    NSD/Knot:`,
    `    ${show(c.nsd, c.diff)}`,
    `    Palisade:`,
    `    ${show(c.palisade, c.diff)}`,
  ].join("\n");
}

function describeDisagreement(c: Case): string {
  return [
    `  ${c.transport.toUpperCase()} ${c.q.desc}`,
    `    NSD:`,
    `    ${show(c.nsd, c.diff)}`,
    `    Knot:`,
    `    ${show(c.knot, c.diff)}`,
    `    Palisade:`,
    `    ${show(c.palisade, c.diff)}`,
  ].join("\n");
}

/** The run's summary: shares, counts per category and exception, a few examples. */
export function report(t: Tally, lists: { allow: Exception[]; gaps: Exception[] }): string {
  const judged = t.total - t.counts.unjudged;
  const c = t.counts;
  const lines = [
    `exchanges: ${t.total}; judged (NSD and Knot agree): ${judged}; not judged: ${c.unjudged}`,
    `identical: ${c.identical}, allow-listed: ${c.allowed}, known gaps: ${c.gap}, failures: ${c.failure}`,
    `identical share: ${pct(c.identical, judged)}; with allow-listed: ${
      pct(c.identical + c.allowed, judged)
    }; with allow-listed and known gaps: ${pct(c.identical + c.allowed + c.gap, judged)}`,
  ];
  for (const [kind, list] of [["allow-list", lists.allow], ["known gap", lists.gaps]] as const) {
    for (const e of list) {
      const hit = t.byException.get(e.id);
      lines.push(`${kind} ${e.id}: ${hit?.count ?? 0} (${e.ref})`);
      if (hit) lines.push(describeCase(hit.example));
    }
  }
  const dis = [...t.disagreements].sort((a, b) => b[1].count - a[1].count);
  for (const [fields, d] of dis.slice(0, 12)) {
    lines.push(
      `not judged, NSD and Knot differ in ${fields}: ${d.count} (Palisade as NSD: ${d.palisadeLikeNsd}, as Knot: ${d.palisadeLikeKnot})`,
      describeDisagreement(d.example),
    );
  }
  const off = [...t.offAgreed].sort((a, b) => b[1].count - a[1].count);
  for (const [fields, o] of off.slice(0, 8)) {
    lines.push(
      `not judged, yet Palisade differs from both in ${fields}, where they agree: ${o.count}`,
      describeCase(o.example),
    );
  }
  const kinds = [...t.failureKinds].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [kind, n] of kinds) lines.push(`failure kind ${kind}: ${n}`);
  return lines.join("\n");
}

/** The query type as the oracles echo it (a mutated message's own), else as generated. */
export function qtypeOf(c: Case): string {
  return c.nsd.msg?.questions[0]?.type ?? c.q.qtype;
}

/** Palisade differs from the oracles in no field but `fields`. */
export function onlyIn(c: Case, fields: Field[]): boolean {
  return c.diff.every((f) => fields.includes(f));
}

/** Header flag `flag` is set in `n`. */
export function flag(n: Norm, f: "aa" | "tc" | "ra"): boolean {
  return n.parts.flags.split(" ").includes(f);
}

/** `n` carries no record in answer, authority or additional. */
export function noRecords(n: Norm): boolean {
  return !n.parts.answer && !n.parts.authority && !n.parts.additional;
}

/**
 * The differential suite's allow-list: differences from NSD and Knot (where
 * they agree) that Palisade keeps on purpose, each with its RFC and why
 * Palisade's answer is as good or better. The same table is in docs/dns.md,
 * "Differential suite"; keep both short and in step.
 */
import { type Exception, flag, noRecords, onlyIn } from "./diff_verdict.ts";

export const ALLOW_LIST: Exception[] = [
  {
    id: "tc-without-records",
    ref: "RFC 2181 §9: a client ignores a reply with TC set and asks again over TCP, so the " +
      "records NSD and Knot put into it are never used; Palisade's TC reply is the question " +
      "(and OPT) alone, the smallest that does the job",
    matches: (c) =>
      flag(c.nsd, "tc") && flag(c.palisade, "tc") && noRecords(c.palisade) &&
      onlyIn(c, ["answer", "authority", "additional"]),
  },
  {
    id: "qclass-any-never-aa",
    ref: "RFC 1034 §3.7.1: with QCLASS ANY a server cannot vouch that it holds every class's " +
      "data, so the answer is not authoritative; NSD and Knot set AA when a CNAME leads into " +
      "a delegation, Palisade never sets it for QCLASS ANY (the records are the same)",
    matches: (c) =>
      c.q.qclass === "ANY" && flag(c.nsd, "aa") && !flag(c.palisade, "aa") &&
      onlyIn(c, ["flags"]),
  },
];

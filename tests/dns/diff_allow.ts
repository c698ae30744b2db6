/**
 * The differential suite's allow-list: differences from NSD and Knot (where
 * they agree) that Palisade keeps on purpose, each with its RFC and why
 * Palisade's answer is as good or better. The same table is in docs/dns.md,
 * "Differential suite"; keep both short and in step.
 */
import type { Exception } from "./diff_verdict.ts";

export const ALLOW_LIST: Exception[] = [];

/**
 * Helpers of the dynamic update tests: nsupdate (BIND) and knsupdate (Knot)
 * run with a script on stdin against a Palisade DNS stack, and the records of
 * a zone as the records API lists them.
 */
import { run } from "../helpers/system.ts";
import type { DnsStack } from "./stack.ts";

export interface UpdateKey {
  name: string;
  secret: string;
  algorithm?: string;
}

/** nsupdate's or knsupdate's output for `lines` sent to the stack (`server` and `send` added). */
export async function nsupdate(
  s: DnsStack,
  key: UpdateKey | null,
  lines: string[],
  opts: { tool?: "nsupdate" | "knsupdate"; tcp?: boolean } = {},
): Promise<{ ok: boolean; out: string }> {
  const tool = opts.tool ?? "nsupdate";
  const args = key ? ["-y", `${key.algorithm ?? "hmac-sha256"}:${key.name}:${key.secret}`] : [];
  if (opts.tcp) args.push("-v");
  // Two tries of two seconds: a lost datagram must not fail a test, a hang must not stall it.
  args.push("-t", "4");
  const script = [`server 127.0.0.1 ${s.port}`, ...lines, "send", ""].join("\n");
  const r = await run(tool, args, { stdin: script, allowFail: true, timeoutMs: 20_000 });
  return { ok: r.code === 0, out: r.stdout + r.stderr };
}

/** "name TYPE value ttl" of every record of `zone` but the SOA, sorted. */
export async function zoneRecords(s: DnsStack, zone: string): Promise<string[]> {
  return (await s.service.listRecords(zone)).records.filter((r) => r.type !== "SOA")
    .map((r) => `${r.domain} ${r.type} ${r.value} ${r.ttl}`).sort();
}

/**
 * BIND's `delv` as the validating resolver of the DNSSEC tests: a trust
 * anchor file for a zone's KSK, and one query against a server on loopback
 * with the verdict ("fully validated") and the answer in its output.
 */
import { run } from "../helpers/system.ts";
import type { DnsStack } from "./stack.ts";

export const SIGNED_ZONE = "signed.test";
const ALG: Record<string, number> = { ECDSAP256SHA256: 13, ED25519: 15, RSASHA256: 8 };

/** A zone with every kind of answer: names, a CNAME chain, a wildcard, an ENT, two delegations. */
export async function populateSigned(s: DnsStack, zone = SIGNED_ZONE): Promise<void> {
  await s.service.createZone("test", { name: zone, admin_email: `h@${zone}` });
  const add = (domain: string, type: string, value: string) =>
    s.service.createRecord("test", zone, { domain: `${domain}.${zone}`, type, value });
  await add("www", "A", "192.0.2.10");
  await add("alias", "CNAME", `chain.${zone}`);
  await add("chain", "CNAME", `www.${zone}`);
  await add("*.wild", "A", "192.0.2.20");
  await add("host.deep.ent", "A", "192.0.2.30");
  await add("secure", "NS", `ns.secure.${zone}`);
  await add("ns.secure", "A", "192.0.2.40");
  await add("secure", "DS", "12345 13 2 " + "AB".repeat(32));
  await add("insecure", "NS", "ns.example.net");
}

/** Writes a delv trust anchor file for `zone`'s KSK into `dir`; returns its path. */
export async function anchorFile(
  dir: string,
  zone: string,
  algorithm: string,
  publicKey: string,
): Promise<string> {
  const path = `${dir}/anchors.conf`;
  const line = `trust-anchors { ${zone}. static-key 257 3 ${ALG[algorithm]} "${publicKey}"; };`;
  await Deno.writeTextFile(path, line + "\n");
  return path;
}

/** delv's whole output (verdict, answer and errors) for `name type` at 127.0.0.1:`port`. */
export async function delv(
  port: number,
  anchors: string,
  zone: string,
  name: string,
  type: string,
): Promise<string> {
  const r = await run("delv", [
    "@127.0.0.1",
    "-p",
    String(port),
    "-a",
    anchors,
    `+root=${zone}`,
    "+nocrypto",
    name,
    type,
  ], { allowFail: true });
  return `${r.stdout}\n${r.stderr}`;
}

/** The [name, type, what the answer shows] cases of `populateSigned`'s zone: every kind of answer. */
export function answerCases(zone = SIGNED_ZONE): [string, string, RegExp][] {
  return [
    [`www.${zone}`, "A", /192\.0\.2\.10/],
    [`alias.${zone}`, "A", /192\.0\.2\.10/],
    [`x.wild.${zone}`, "A", /192\.0\.2\.20/],
    [`nope.${zone}`, "A", /NXDOMAIN|ncache nxdomain/],
    [`www.${zone}`, "TXT", /nxrrset/],
    [`ent.${zone}`, "A", /nxrrset/],
    [`x.wild.${zone}`, "TXT", /nxrrset/],
    [`secure.${zone}`, "DS", /12345 13 2/],
    [`insecure.${zone}`, "DS", /nxrrset/],
    [zone, "DNSKEY", /DNSKEY/],
  ];
}

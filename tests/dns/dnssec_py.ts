/**
 * dnspython (Debian's python3-dnspython with python3-cryptography) as the
 * independent judge of the signing code: it validates RRSIGs with its own
 * canonical form, decodes NSEC RDATA, orders names canonically, and writes
 * records in presentation form for BIND's and ldns's zone verifiers.
 */
import { run, systemTestsRequired } from "../helpers/system.ts";
import { hex } from "./dnssec_keys.ts";

/** A python3 that imports dnspython's DNSSEC module (Debian's lives beside /usr/bin/python3, which PATH may shadow). */
async function findPython(): Promise<string | null> {
  for (const py of ["python3", "/usr/bin/python3"]) {
    try {
      const r = await run(py, ["-c", "import dns.dnssec, cryptography"], { allowFail: true });
      if (r.code === 0) return py;
    } catch { /* not this one */ }
  }
  return null;
}

/** The python, or null (SKIP) when missing and system tests are not required. */
export async function dnspython(testName: string): Promise<string | null> {
  const py = await findPython();
  if (py) return py;
  const reason = "python3-dnspython or python3-cryptography not installed";
  if (systemTestsRequired()) {
    throw new Error(`${testName}: ${reason} (PALISADE_REQUIRE_SYSTEM_TESTS=1)`);
  }
  console.log(`SKIP ${testName}: ${reason}`);
  return null;
}

async function python<T>(py: string, script: string, input: unknown, args: string[] = []) {
  const r = await run(py, ["-c", PRELUDE + script, ...args], { stdin: JSON.stringify(input) });
  return JSON.parse(r.stdout) as T;
}

const PRELUDE = `
import json, sys
import dns.dnssec, dns.name, dns.rdata, dns.rdataclass, dns.rdatatype, dns.rrset
IN = dns.rdataclass.IN
def rd(t, h):
    b = bytes.fromhex(h)
    return dns.rdata.from_wire(IN, t, b, 0, len(b))
def name(text):
    return dns.name.from_text(text + ".")
`;

/** One RRset and one of its signatures, all on the wire, as the signer made them. */
export interface SignedCase {
  /** Owner in text form (no trailing dot); for a wildcard expansion, the expanded name. */
  owner: string;
  type: number;
  ttl: number;
  rdatas: Uint8Array[];
  rrsig: Uint8Array;
  dnskey: Uint8Array;
  apex: string;
  /** Unix seconds at which to validate. */
  now: number;
}

const VALIDATE = `
out = []
for c in json.load(sys.stdin):
    rrset = dns.rrset.from_rdata_list(name(c["owner"]), c["ttl"], [rd(c["type"], h) for h in c["rdatas"]])
    apex = name(c["apex"])
    keys = {apex: dns.rrset.from_rdata(apex, 3600, rd(dns.rdatatype.DNSKEY, c["dnskey"]))}
    try:
        dns.dnssec.validate_rrsig(rrset, rd(dns.rdatatype.RRSIG, c["rrsig"]), keys, now=c["now"])
        out.append("ok")
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
print(json.dumps(out))
`;

/** dnspython's verdict on each case: "ok" or its exception. */
export function validate(py: string, cases: SignedCase[]): Promise<string[]> {
  return python<string[]>(
    py,
    VALIDATE,
    cases.map((c) => ({
      ...c,
      rdatas: c.rdatas.map(hex),
      rrsig: hex(c.rrsig),
      dnskey: hex(c.dnskey),
    })),
  );
}

/** What dnspython reads in one NSEC RDATA, and which of `probe` names the NSEC covers. */
export interface NsecFacts {
  next: string;
  types: number[];
  /** Per probe name: strictly between owner and next (wrapping at the chain's end). */
  covers: boolean[];
}

const NSEC_FACTS = `
out = []
for c in json.load(sys.stdin):
    r = rd(dns.rdatatype.NSEC, c["rdata"])
    types = []
    for window, bitmap in r.windows:
        for i, byte in enumerate(bitmap):
            for j in range(8):
                if byte & (0x80 >> j):
                    types.append(window * 256 + i * 8 + j)
    owner, nxt = name(c["owner"]), r.next
    def covered(n):
        n = name(n)
        return owner < n and (n < nxt or nxt <= owner)
    out.append({"next": nxt.to_text(), "types": types, "covers": [covered(n) for n in c["probe"]]})
print(json.dumps(out))
`;

export function nsecFacts(
  py: string,
  nsecs: { owner: string; rdata: Uint8Array; probe: string[] }[],
): Promise<NsecFacts[]> {
  return python<NsecFacts[]>(py, NSEC_FACTS, nsecs.map((n) => ({ ...n, rdata: hex(n.rdata) })));
}

const SORT = `
out = []
for group in json.load(sys.stdin):
    names = [name(t) for t in group]
    out.append(sorted(range(len(names)), key=lambda i: names[i]))
print(json.dumps(out))
`;

/** For each group of names, their indexes in dnspython's (canonical) order of the names. */
export function sortedOrder(py: string, groups: string[][]): Promise<number[][]> {
  return python<number[][]>(py, SORT, groups);
}

const ZONE_TEXT = `
lines = []
for r in json.load(sys.stdin):
    data = rd(r["type"], r["rdata"])
    lines.append("%s %d IN %s %s" % (name(r["owner"]).to_text(), r["ttl"], dns.rdatatype.to_text(r["type"]), data.to_text()))
print(json.dumps("\\n".join(lines) + "\\n"))
`;

/** A master file of `records` (wire RDATA), written by dnspython. */
export function zoneText(
  py: string,
  records: { owner: string; type: number; ttl: number; rdata: Uint8Array }[],
): Promise<string> {
  return python<string>(py, ZONE_TEXT, records.map((r) => ({ ...r, rdata: hex(r.rdata) })));
}

/**
 * dnspython (with python3-cryptography) as the oracle of DNSSEC key
 * material: for a DNSKEY it gives the key tag (dns.dnssec.key_id), the DS
 * records (dns.dnssec.make_ds), the RSA modulus length, and whether an RRSIG
 * validates over an RRset (dns.dnssec.validate_rrsig). None of it comes from
 * the code under test.
 */
import { run, systemTestsRequired } from "../helpers/system.ts";

/** One DNSKEY to read, and optionally an RRSIG over `rrset` (A records at `owner`) to validate. */
export interface OracleCase {
  owner: string;
  /** DNSKEY in presentation form: flags, protocol, algorithm, base64 key. */
  dnskey: string;
  rrsig?: { text: string; rrset: string[]; ttl: number; now: number };
}

export interface OracleAnswer {
  key_id: number;
  /** DS records in presentation form, SHA-256 then SHA-384. */
  ds: string[];
  /** RSA modulus length; null for the other algorithms. */
  rsa_bits: number | null;
  /** true, or the reason validation failed; null when no RRSIG was given. */
  valid: true | string | null;
}

const SCRIPT = `
import sys, json
import dns.dnssec, dns.name, dns.rdata, dns.rrset
out = []
for c in json.load(sys.stdin):
    owner = dns.name.from_text(c["owner"])
    key = dns.rdata.from_text("IN", "DNSKEY", c["dnskey"])
    rsa_bits = None
    if key.algorithm == 8:
        elen = key.key[0]
        skip = 1 if elen else 3
        if not elen:
            elen = int.from_bytes(key.key[1:3], "big")
        rsa_bits = int.from_bytes(key.key[skip + elen:], "big").bit_length()
    res = {
        "key_id": dns.dnssec.key_id(key),
        "ds": [dns.dnssec.make_ds(owner, key, d).to_text() for d in ("SHA256", "SHA384")],
        "rsa_bits": rsa_bits,
        "valid": None,
    }
    s = c.get("rrsig")
    if s:
        rrset = dns.rrset.from_text_list(owner, s["ttl"], "IN", "A", s["rrset"])
        sig = dns.rdata.from_text("IN", "RRSIG", s["text"])
        keys = {owner: dns.rrset.from_rdata(owner, s["ttl"], key)}
        try:
            dns.dnssec.validate_rrsig(rrset, sig, keys, now=s["now"])
            res["valid"] = True
        except dns.dnssec.ValidationFailure as e:
            res["valid"] = str(e) or "ValidationFailure"
    out.append(res)
print(json.dumps(out))
`;

/** A python3 with dnspython's DNSSEC support: Debian's is /usr/bin/python3, which PATH may shadow. */
async function python(): Promise<string | null> {
  for (const py of ["python3", "/usr/bin/python3"]) {
    try {
      const r = await run(py, ["-c", "import dns.dnssec, cryptography"], { allowFail: true });
      if (r.code === 0) return py;
    } catch { /* not this one */ }
  }
  return null;
}

/**
 * dnspython's answers for `cases`, or null (SKIP printed) when it is missing
 * and system tests are not required.
 */
export async function dnssecOracle(
  testName: string,
  cases: OracleCase[],
): Promise<OracleAnswer[] | null> {
  const py = await python();
  if (!py) {
    const reason = "python3-dnspython with python3-cryptography not installed";
    if (systemTestsRequired()) {
      throw new Error(`${testName}: ${reason} (PALISADE_REQUIRE_SYSTEM_TESTS=1)`);
    }
    console.log(`SKIP ${testName}: ${reason}`);
    return null;
  }
  const r = await run(py, ["-c", SCRIPT], { stdin: JSON.stringify(cases) });
  return JSON.parse(r.stdout) as OracleAnswer[];
}

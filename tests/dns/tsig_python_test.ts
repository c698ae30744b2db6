/**
 * dnspython as the second, independent TSIG oracle: it checks the signature
 * of every message of a long AXFR (a zone of many TCP messages, each signed
 * over the previous MAC, RFC 8945 §5.3.1), of a signed UDP answer, and reads
 * the TSIG errors of a wrong secret (BADSIG), an unknown key (BADKEY) and a
 * clock far off (BADTIME).
 */
import { assert, assertEquals } from "../assert.ts";
import { run } from "../helpers/system.ts";
import { dnspython } from "./dnssec_py.ts";
import { startDnsStack } from "./stack.ts";

const Z = "big.test";
const RECORDS = 8000;

const SCRIPT = `
import json, sys, time
import dns.message, dns.name, dns.query, dns.rcode, dns.tsig, dns.tsigkeyring
a = json.loads(sys.stdin.read())
alg = dns.name.from_text(a["algorithm"])
ring = dns.tsigkeyring.from_text({a["key"]: (a["algorithm"], a["secret"])})
out = {}
msgs, records, signed = 0, 0, 0
for m in dns.query.xfr("127.0.0.1", a["zone"], port=a["port"], keyring=ring, keyname=a["key"], keyalgorithm=alg, lifetime=60):
    msgs += 1
    signed += 1 if m.had_tsig else 0
    records += sum(len(rrset) for rrset in m.answer)
out["xfr"] = {"messages": msgs, "signed": signed, "records": records}
q = dns.message.make_query(a["zone"], "SOA")
q.use_tsig(ring, keyname=a["key"], algorithm=alg)
r = dns.query.udp(q, "127.0.0.1", port=a["port"], timeout=5)
out["udp"] = {"rcode": dns.rcode.to_text(r.rcode()), "signed": r.had_tsig, "answers": len(r.answer)}
def failure(ring, key, skew=0):
    real = time.time
    time.time = lambda: real() + skew
    try:
        q = dns.message.make_query(a["zone"], "SOA")
        q.use_tsig(ring, keyname=key, algorithm=alg)
        dns.query.udp(q, "127.0.0.1", port=a["port"], timeout=5)
        return "none"
    except Exception as e:
        return type(e).__name__
    finally:
        time.time = real
wrong = dns.tsigkeyring.from_text({a["key"]: (a["algorithm"], "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg=")})
out["badsig"] = failure(wrong, a["key"])
other = dns.tsigkeyring.from_text({"nosuch.key": (a["algorithm"], a["secret"])})
out["badkey"] = failure(other, "nosuch.key")
out["badtime"] = failure(ring, a["key"], -4000)
print(json.dumps(out))
`;

Deno.test("dnspython verifies every message of a long signed AXFR and reads BADSIG, BADKEY, BADTIME", async () => {
  const py = await dnspython("tsig dnspython");
  if (!py) return;
  await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
  await s.service.createZone("test", { name: Z, admin_email: "h@big.test" });
  // TXT records of 200 bytes: enough for over a hundred messages of 16 kB (past the 100 of RFC 8945 §5.3.1).
  const lines = Array.from(
    { length: RECORDS },
    (_, i) => `r${i}.${Z}. 300 IN TXT "${String(i).padStart(6, "0")}${"x".repeat(194)}"`,
  );
  await s.service.importZone("test", Z, lines.join("\n"));
  const key = await s.tsig.create("test", { name: "py.key", algorithm: "hmac-sha512", zones: [Z] });
  const input = {
    port: s.port,
    zone: Z,
    key: "py.key",
    algorithm: "hmac-sha512",
    secret: key.secret,
  };
  const r = await run(py, ["-c", SCRIPT], { stdin: JSON.stringify(input), allowFail: true });
  assertEquals(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert(out.xfr.messages > 100, JSON.stringify(out.xfr));
  assertEquals(out.xfr.signed, out.xfr.messages);
  // SOA, 2 NS, the records, SOA again.
  assertEquals(out.xfr.records, RECORDS + 4);
  assertEquals(out.udp, { rcode: "NOERROR", signed: true, answers: 1 });
  assertEquals(out.badsig, "PeerBadSignature");
  assertEquals(out.badkey, "PeerBadKey");
  assertEquals(out.badtime, "PeerBadTime");
});

/**
 * Every supported record type against its RFC, at the API: each value the API
 * accepts is served by the real DNS listener and read without complaint by
 * BIND's dig, Knot's kdig and dnspython (queries over UDP and TCP, and AXFR);
 * each value a resolver would choke on is refused with 400 on `value`.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { oracles, type Parsed } from "../dns/parsers.ts";

const Z = "example.com";
/** `n` bytes as hex. */
const hex = (n: number) => "a1".repeat(n);

/** [type, value, referral]: a referral answers with authority data, not an answer. */
const VALID: [string, string, boolean?][] = [
  ["A", "192.0.2.1"],
  ["AAAA", "2001:db8::1"],
  ["CNAME", "target.example.net"],
  ["DNAME", "example.net"],
  ["NS", "ns.example.net", true],
  ["PTR", "host.example.net"],
  ["PTR", "1.0/25.2.0.192.in-addr.arpa"],
  ["MX", "10 mail.example.net"],
  ["MX", "0 ."],
  ["SRV", "10 60 5060 sip.example.net"],
  ["SRV", "0 0 0 ."],
  ["TXT", "v=spf1 -all"],
  ["TXT", '""'],
  ["TXT", "k=" + "x".repeat(600)],
  ["TXT", '"a \\"b\\"" "c;d" "caf\\195\\169"'],
  ["SPF", "v=spf1 mx -all"],
  ["CAA", '0 issue "letsencrypt.org"'],
  ["CAA", '128 iodef "mailto:security@example.com"'],
  ["CAA", '0 abcdefghijklmn5 ";"'],
  ["DS", `12345 13 2 ${hex(32)}`],
  ["DS", `1 8 1 ${hex(20)}`],
  ["DS", `2 14 4 ${hex(48)}`],
  ["DS", `3 8 3 ${hex(32)}`],
  ["DS", `4 8 200 ${hex(7)}`],
  ["SSHFP", `1 1 ${hex(20)}`],
  ["SSHFP", `4 2 ${hex(32)}`],
  ["SSHFP", `3 200 ${hex(5)}`],
  ["TLSA", `3 1 1 ${hex(32)}`],
  ["TLSA", `3 1 2 ${hex(64)}`],
  ["TLSA", `2 0 0 ${hex(100)}`],
  ["SMIMEA", `3 1 1 ${hex(32)}`],
  ["NAPTR", '100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .'],
  ["NAPTR", '100 10 "S" "SIP+D2U" "" _sip._udp.example.com'],
  ["NAPTR", '10 20 "a" "x" "/(a)(b)/\\\\2\\\\1/i" .'],
  ["TYPE65534", "\\# 4 0A000001"],
  ["TYPE65534", "\\# 0"],
];

const INVALID: [string, string][] = [
  ["A", "192.0.2"],
  ["AAAA", "2001:db8::g"],
  ["CNAME", "192.0.2.1"],
  ["CNAME", "a..example.net"],
  ["DNAME", "a..example.net"],
  ["NS", "ns.1e999"],
  ["MX", "65536 mail.example.net"],
  ["MX", "10 mail/x"],
  ["SRV", "10 60 65536 sip.example.net"],
  ["TXT", "x".repeat(65_535)],
  ["SPF", "y".repeat(65_535)],
  ["CAA", '256 issue "letsencrypt.org"'],
  ["CAA", '0 is-sue "letsencrypt.org"'],
  ["CAA", '0 abcdefghijklmnop "letsencrypt.org"'],
  ["CAA", '0 issue "tab\\009"'],
  ["DS", `12345 13 2 ${hex(20)}`],
  ["DS", `12345 13 1 ${hex(32)}`],
  ["DS", `1 8 4 ${hex(32)}`],
  ["DS", `1 8 3 ${hex(20)}`],
  ["DS", "1 8 2 XY"],
  ["DS", "1 8 2 abc"],
  ["DS", `1 0 2 ${hex(32)}`],
  ["DS", `1 8 0 ${hex(32)}`],
  ["SSHFP", `1 1 ${hex(40)}`],
  ["SSHFP", `4 2 ${hex(20)}`],
  ["SSHFP", `1 0 ${hex(20)}`],
  ["SSHFP", `0 1 ${hex(20)}`],
  ["TLSA", `3 1 1 ${hex(20)}`],
  ["TLSA", `3 1 2 ${hex(32)}`],
  ["TLSA", "3 1 1 xyz"],
  ["TLSA", `256 1 1 ${hex(32)}`],
  ["SMIMEA", `3 1 2 ${hex(32)}`],
  ["NAPTR", '100 10 "U!" "E2U+sip" "!^.*$!sip:x@example.com!" .'],
  ["NAPTR", '100 10 "U" "E2U+sip" "!^.*$!sip:x@example.com" .'],
  ["NAPTR", '100 10 "U" "E2U+sip" "1^.*$1sip:x@example.com1" .'],
  ["NAPTR", '100 10 "U" "E2U+sip" "/a/\\\\1/" .'],
  ["NAPTR", '100 10 "U" "E2U+sip" "!^.*$!sip:x@example.com!" sip.example.com'],
  ["NAPTR", '100 10 "U" "E2U+sip" "!^(.*$!sip:x@example.com!" .'],
  ["TYPE65534", "\\# 5 0A000001"],
];

function clean(parser: string, results: Parsed[], count: number, what: string): void {
  const detail = `${parser} ${what}: ${JSON.stringify(results)}`;
  assertEquals(results.flatMap((r) => r.complaints), [], detail);
  assertEquals(results.length, count, detail);
}

Deno.test("every supported type: what the API accepts dig, kdig and dnspython read cleanly from the listener; what they would reject is a 400 on value", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const zone = await api.post("/zones", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    default_ttl: 600,
    nameservers: [`ns1.${Z}`],
  });
  assertEquals(zone.status, 201, JSON.stringify(zone.body));

  for (const [type, value] of INVALID) {
    const res = await api.post(`/zones/${Z}/records`, { domain: `bad.${Z}`, type, value });
    const what = `${type} ${value.slice(0, 60)}`;
    assertEquals(res.status, 400, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`);
    assertMatch(res.body.error as string, /value/, what);
  }
  const queries: [string, string][] = [];
  for (const [i, [type, value]] of VALID.entries()) {
    const domain = `v${i}.${Z}`;
    const res = await api.post(`/zones/${Z}/records`, { domain, type, value });
    assertEquals(res.status, 201, `${type} ${value}: ${JSON.stringify(res.body)}`);
    queries.push([domain, type]);
  }

  const parsers = await oracles("record types read by dig, kdig and dnspython");
  if (!parsers) return;
  for (const tcp of [false, true]) {
    const transport = tcp ? "TCP" : "UDP";
    const all = await parsers.query(t.dns.port, queries, tcp);
    for (const [p, results] of ["dig", "kdig", "dnspython"].map((p, i) => [p, all[i]] as const)) {
      clean(p, results, VALID.length, `over ${transport}`);
      for (const [i, r] of results.entries()) {
        const [type, value, referral] = VALID[i];
        const what = `${p} over ${transport}, ${type} ${value.slice(0, 60)}: ${JSON.stringify(r)}`;
        assertEquals(r.status, "NOERROR", what);
        if (referral) continue;
        assert(r.answer.some((line) => line.split(" ")[3] === type), what);
      }
    }
  }

  const transfers = await parsers.axfr(t.dns.port, Z);
  for (const [p, x] of ["dig", "kdig", "dnspython"].map((p, i) => [p, transfers[i]] as const)) {
    const detail = `${p} AXFR: ${JSON.stringify(x).slice(0, 2000)}`;
    assertEquals(x.complaints, [], detail);
    const owners = new Set(x.answer.map((line) => line.split(" ")[0].toLowerCase()));
    for (const [domain] of queries) assert(owners.has(`${domain}.`), `${domain}: ${detail}`);
  }
});

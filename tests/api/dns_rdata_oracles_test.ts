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
  ["HTTPS", "1 . alpn=h3,h2 port=443 ipv4hint=192.0.2.1 ech=AEX+DQ== ipv6hint=2001:db8::1"],
  ["HTTPS", "0 svc.example.net"],
  ["SVCB", '1 svc.example.net. mandatory=key65000 key65000="" key7="/q{?dns}" key8'],
  ["SVCB", "1 . dohpath=/dns-query{?dns,x}"],
  ["SVCB", "3 . alpn=h2 no-default-alpn port=0"],
  ["URI", '10 1 "https://www.example.com/path?q=1"'],
  ["URI", '0 0 "mailto:a@example.com"'],
  ["LOC", "52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m"],
  ["LOC", "42 21 54 N 71 06 18 W -24m 30m"],
  ["LOC", "90 S 180 E 42849672.95m 90000000m 0m 0.01m"],
  ["LOC", "0 N 0 W -100000m"],
  ["HINFO", '"PC" "Linux os"'],
  ["HINFO", '"RFC8482" ""'],
  ["RP", "mbox.example.net. txt.example.net."],
  ["RP", ". ."],
  ["OPENPGPKEY", "mQINBGF0ZXN0AQ=="],
  ["SMIMEA", `0 0 0 ${hex(40)}`],
  ["CERT", "PGP 0 0 AAECAwQ="],
  ["CERT", "1 12345 RSASHA256 AAEC AwQ="],
  ["CERT", "URI 0 0 aHR0cHM6Ly9leGFtcGxlLmNvbS9jZXJ0"],
  ["AFSDB", "1 afs.example.net"],
  ["AFSDB", "2 dce.example.net"],
  ["KX", "10 kx.example.net"],
  ["CDS", "0 0 0 00"],
  ["CDS", `12345 13 2 ${hex(32)}`],
  ["CDNSKEY", "0 3 0 AA=="],
  ["CDNSKEY", `257 3 15 ${"A".repeat(43)}=`],
  ["CDNSKEY", "256 3 8 AwEAAcxyz0Q1B2gF"],
  ["CDNSKEY", `385 3 13 ${"B".repeat(86)}==`],
];

/**
 * HTTPS and SVCB as given, as stored (which is what dig prints back from the
 * wire) and as kdig prints them (alpn unquoted). Given as RFC 3597 data, a
 * known type is stored and served in its own presentation.
 */
const PRESENTED: { type: string; value: string; stored: [string, string]; kdig: string }[] = [
  {
    type: "HTTPS",
    value:
      "1 . alpn=h3,h2 port=443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQ== ipv6hint=2001:DB8::1 mandatory=port,alpn",
    stored: [
      "HTTPS",
      '1 . mandatory=alpn,port alpn="h3,h2" port=443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQ== ipv6hint=2001:db8::1',
    ],
    kdig:
      "1 . mandatory=alpn,port alpn=h3,h2 port=443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQ== ipv6hint=2001:db8::1",
  },
  {
    type: "SVCB",
    value: '1 Svc.Example.NET. key667="x\\,y" no-default-alpn key65000=abc alpn="h2"',
    stored: ["SVCB", '1 svc.example.net. alpn="h2" no-default-alpn key667="x,y" key65000="abc"'],
    kdig: '1 svc.example.net. alpn=h2 no-default-alpn key667="x,y" key65000="abc"',
  },
  {
    type: "SVCB",
    value: "2 . key65534 alpn=h\\\\,x,y",
    stored: ["SVCB", '2 . alpn="h\\\\,x,y" key65534'],
    kdig: "2 . alpn=h\\\\,x,y key65534",
  },
  {
    type: "HTTPS",
    value: "0 svc.example.net.",
    stored: ["HTTPS", "0 svc.example.net."],
    kdig: "0 svc.example.net.",
  },
  { type: "TYPE65", value: "\\# 3 000000", stored: ["HTTPS", "0 ."], kdig: "0 ." },
  {
    type: "type64",
    value: "\\# 16 0001 00 0001 0003 026833 0003 0002 01BB",
    stored: ["SVCB", '1 . alpn="h3" port=443'],
    kdig: "1 . alpn=h3 port=443",
  },
];

/** Owners with RFC 1035 escapes: as given, as the API stores them, as dig, kdig and dnspython print them. */
const ESCAPED: [string, string, string][] = [
  [`x\\.Y.${Z}`, `x\\046y.${Z}`, `x\\.y.${Z}.`],
  [`\\200\\001.${Z}`, `\\200\\001.${Z}`, `\\200\\001.${Z}.`],
  [`a\\032b.${Z}`, `a\\032b.${Z}`, `a\\032b.${Z}.`],
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
  ["HTTPS", "0 svc.example.net alpn=h2"],
  ["HTTPS", "1 . mandatory=port alpn=h2"],
  ["HTTPS", "1 . mandatory=mandatory,alpn alpn=h2"],
  ["HTTPS", "1 . mandatory=alpn,alpn alpn=h2"],
  ["HTTPS", "1 . alpn=h2 alpn=h3"],
  ["HTTPS", "1 . no-default-alpn"],
  ["HTTPS", "1 . no-default-alpn=x alpn=h2"],
  ["HTTPS", "1 . port=65536"],
  ["HTTPS", "1 . port"],
  ["HTTPS", "1 . alpn=h2,,h3"],
  ["HTTPS", "1 . ipv4hint=192.0.2"],
  ["HTTPS", "1 . ipv6hint=192.0.2.1"],
  ["HTTPS", "1 . ech=@@@@"],
  ["SVCB", "1 . key65535=x"],
  ["SVCB", "1 . key007=x"],
  ["SVCB", "1 . foo=bar"],
  ["SVCB", "1 . key7=abc"],
  ["SVCB", "1 . key7=x{?dns}"],
  ["SVCB", "1 . key7=/q{?name}"],
  ["SVCB", "1 . key8=x"],
  ["SVCB", '1 . "alpn=h2"'],
  ["TYPE65", "\\# 7 00010000010000"],
  ["TYPE65", "\\# 13 0001 00 0003 0002 01BB 0001 0000"],
  ["TYPE65", "\\# 9 0000 00 0003 0002 01BB"],
  ["TYPE64", "\\# 5 0001 00 0003"],
  ["URI", '10 1 ""'],
  ["URI", '10 1 "no scheme"'],
  ["URI", "10 1 https://unquoted.example.com/"],
  ["LOC", "91 N 0 E 0m"],
  ["LOC", "52 60 0 N 4 0 0 E 0m"],
  ["LOC", "52 N 181 E 0m"],
  ["LOC", "52 N 4 E -100000.01m"],
  ["LOC", "52 22 23 N 4 53 32 E -2m 15m"],
  ["LOC", "52 22 23 N 4 53 32 E"],
  ["TYPE29", "\\# 16 01121613899ECB7D80A3B1B80098967F"],
  ["HINFO", '"PC"'],
  ["HINFO", `"${"x".repeat(256)}" "os"`],
  ["TYPE13", "\\# 1 05"],
  ["RP", "mbox.example.net."],
  ["RP", "a..b ."],
  ["OPENPGPKEY", "not base64"],
  ["OPENPGPKEY", "AAECAwQFBgc"],
  ["CERT", "0 0 0 AAECAwQ="],
  ["CERT", "255 0 0 AAECAwQ="],
  ["CERT", "FOO 0 0 AAECAwQ="],
  ["CERT", "PGP 0 0 !!!!"],
  ["AFSDB", "65536 afs.example.net"],
  ["AFSDB", "1"],
  ["KX", "x kx.example.net"],
  ["CDS", "0 0 0 0000"],
  ["CDS", "1 0 0 00"],
  ["CDS", `12345 13 2 ${hex(20)}`],
  ["CDNSKEY", "0 3 0 AAA="],
  ["CDNSKEY", "257 2 8 AAECAwQ="],
  ["CDNSKEY", "1 3 8 AAECAwQ="],
  ["CDNSKEY", "257 3 13 AAECAwQ="],
  ["CDNSKEY", "256 3 0 AA=="],
  ["TYPE1", "\\# 3 C00002"],
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

/** The data of an answer line as a parser printed it (owner, TTL, class and type dropped). */
const data = (line: string) => line.split(" ").slice(4).join(" ");

Deno.test("HTTPS and SVCB: dig prints back from the listener the form the API stored, kdig the same with alpn unquoted; RFC 3597 data of a known type is stored in its presentation; escaped owners are served under their wire names", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const zone = await api.post("/zones", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    nameservers: [`ns1.${Z}`],
  });
  assertEquals(zone.status, 201, JSON.stringify(zone.body));
  const queries: [string, string][] = [];
  for (const [i, c] of PRESENTED.entries()) {
    const domain = `p${i}.${Z}`;
    const res = await api.post(`/zones/${Z}/records`, { domain, type: c.type, value: c.value });
    assertEquals(res.status, 201, `${c.type} ${c.value}: ${JSON.stringify(res.body)}`);
    assertEquals([res.body.type, res.body.value], c.stored, c.value);
    queries.push([domain, c.stored[0]]);
  }
  for (const [i, [given, stored]] of ESCAPED.entries()) {
    const res = await api.post(`/zones/${Z}/records`, {
      domain: given,
      type: "A",
      value: `192.0.2.${i + 1}`,
    });
    assertEquals(res.status, 201, `${given}: ${JSON.stringify(res.body)}`);
    assertEquals(res.body.domain, stored);
    queries.push([given, "A"]);
  }
  const bad = await api.post(`/zones/${Z}/records`, {
    domain: `a\\256.${Z}`,
    type: "A",
    value: "192.0.2.9",
  });
  assertEquals(bad.status, 400, JSON.stringify(bad.body));

  const parsers = await oracles("HTTPS and SVCB presentation read back by dig and kdig");
  if (!parsers) return;
  const [dig, kdig, py] = await parsers.query(t.dns.port, queries);
  for (const [p, results] of [["dig", dig], ["kdig", kdig], ["dnspython", py]] as const) {
    clean(p, results, queries.length, "over UDP");
  }
  for (const [i, c] of PRESENTED.entries()) {
    assertEquals(dig[i].answer.map(data), [c.stored[1]], `dig: ${JSON.stringify(dig[i])}`);
    assertEquals(kdig[i].answer.map(data), [c.kdig], `kdig: ${JSON.stringify(kdig[i])}`);
  }
  for (const [i, [, , printed]] of ESCAPED.entries()) {
    for (const [p, results] of [["dig", dig], ["kdig", kdig], ["dnspython", py]] as const) {
      const r = results[PRESENTED.length + i];
      const what = `${p}: ${JSON.stringify(r)}`;
      // The owner comes back in the query's case ("x\\.Y").
      assertEquals(r.answer.map((l) => l.split(" ")[0].toLowerCase()), [printed], what);
      assertEquals(r.answer.map(data), [`192.0.2.${i + 1}`], what);
    }
  }

  const transfers = await parsers.axfr(t.dns.port, Z);
  for (const [p, x] of ["dig", "kdig", "dnspython"].map((p, i) => [p, transfers[i]] as const)) {
    const detail = `${p} AXFR: ${JSON.stringify(x).slice(0, 2000)}`;
    assertEquals(x.complaints, [], detail);
    const owners = new Set(x.answer.map((line) => line.split(" ")[0].toLowerCase()));
    for (const [, , printed] of ESCAPED) assert(owners.has(printed), `${printed}: ${detail}`);
  }
});

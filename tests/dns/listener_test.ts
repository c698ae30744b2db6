/**
 * The DNS listener against real clients (dig, kdig) and raw sockets: every
 * answer class, EDNS0, truncation with TCP fallback, case echo, TCP framing
 * and idle timeout, zone transfer ACL.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { Buffer } from "node:buffer";
import { dig } from "./dig.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "example.test";

async function populate(s: DnsStack): Promise<void> {
  await s.service.createZone("test", {
    name: Z,
    admin_email: "hostmaster@example.test",
    minimum: 120,
    default_ttl: 600,
    nameservers: ["ns1.example.test"],
  });
  const add = (domain: string, type: string, value: string, ttl?: number) =>
    s.service.createRecord("test", Z, { domain, type, value, ttl });
  await add("ns1.example.test", "A", "192.0.2.53");
  await add("www.example.test", "A", "192.0.2.1");
  await add("alias.example.test", "CNAME", "www.example.test");
  await add("*.wild.example.test", "A", "192.0.2.99");
  await add("sub.example.test", "NS", "ns.sub.example.test");
  await add("ns.sub.example.test", "A", "192.0.2.153");
  // ~2.1 KB of TXT: larger than any UDP answer we send.
  for (let i = 0; i < 8; i++) await add("big.example.test", "TXT", `${i}-${"y".repeat(250)}`);
}

/** One UDP exchange with a raw message; null when no reply within 1 s. */
async function udpRaw(port: number, msg: Uint8Array): Promise<Uint8Array | null> {
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    await sock.send(msg, { transport: "udp", hostname: "127.0.0.1", port });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((r) => timer = setTimeout(() => r(null), 1000));
    const got = await Promise.race([sock.receive().then(([d]) => d), timeout]);
    clearTimeout(timer);
    return got;
  } finally {
    sock.close();
  }
}

function query(name: string, type: string, id = 4242): Uint8Array {
  return new Uint8Array(
    dnsPacket.encode({ type: "query", id, questions: [{ name, type, class: "IN" }] }),
  );
}

Deno.test("DNS listener answers every answer class to dig as an authoritative server", async () => {
  if (!haveSystem("dns answer classes", ["dig"])) return;
  await using s = await startDnsStack();
  await populate(s);
  const p = s.port;

  const a = await dig(p, ["www.example.test", "A"]);
  assertEquals([a.status, a.flags], ["NOERROR", ["aa", "qr"]]);
  assertEquals(a.answer, ["www.example.test. 600 IN A 192.0.2.1"]);

  const cname = await dig(p, ["alias.example.test", "A"]);
  assertEquals(cname.answer, [
    "alias.example.test. 600 IN CNAME www.example.test.",
    "www.example.test. 600 IN A 192.0.2.1",
  ]);

  const wild = await dig(p, ["any.thing.wild.example.test", "A"]);
  assertEquals(wild.answer, ["any.thing.wild.example.test. 600 IN A 192.0.2.99"]);
  assertEquals(wild.flags, ["aa", "qr"]);

  const serial = (await s.service.getZone(Z)).serial;
  const soa =
    `example.test. 120 IN SOA ns1.example.test. hostmaster.example.test. ${serial} 3600 900 1209600 120`;
  const nodata = await dig(p, ["www.example.test", "AAAA"]);
  assertEquals([nodata.status, nodata.answer, nodata.authority], ["NOERROR", [], [soa]]);
  assertEquals(nodata.flags, ["aa", "qr"]);

  const nx = await dig(p, ["missing.example.test", "A"]);
  assertEquals([nx.status, nx.answer, nx.authority], ["NXDOMAIN", [], [soa]]);

  const ref = await dig(p, ["host.sub.example.test", "A"]);
  assertEquals(ref.status, "NOERROR");
  assertEquals(ref.flags, ["qr"], "a referral is not authoritative");
  assertEquals(ref.authority, ["sub.example.test. 600 IN NS ns.sub.example.test."]);
  assertEquals(ref.additional, ["ns.sub.example.test. 600 IN A 192.0.2.153"]);

  const refused = await dig(p, ["www.example.org", "A"]);
  assertEquals([refused.status, refused.flags], ["REFUSED", ["qr"]]);

  const notimp = await dig(p, ["+opcode=2", "www.example.test", "A"]);
  assertEquals(notimp.status, "NOTIMP");

  // The index follows the store at once.
  await s.service.createRecord("test", Z, {
    domain: "new.example.test",
    type: "A",
    value: "192.0.2.7",
  });
  assertEquals((await dig(p, ["new.example.test", "A"])).answer, [
    "new.example.test. 600 IN A 192.0.2.7",
  ]);
});

Deno.test("DNS listener answers malformed queries with FORMERR, is silent without a question and to responses", async () => {
  await using s = await startDnsStack();
  await populate(s);
  const good = query("www.example.test", "A", 0x1234);
  const decode = (b: Uint8Array | null) => dnsPacket.decode(Buffer.from(b!));

  // A readable question with something wrong after it: FORMERR, as from NSD and Knot.
  const trailing = new Uint8Array([...good, 1, 2, 3]);
  const r1 = decode(await udpRaw(s.port, trailing));
  assertEquals([r1.id, r1.rcode, r1.type], [0x1234, "FORMERR", "response"]);
  const answerCount = new Uint8Array(good);
  answerCount[7] = 1; // ANCOUNT 1 without the record
  assertEquals(decode(await udpRaw(s.port, answerCount)).rcode, "FORMERR");

  // No question to echo: silence, as from Knot (and NSD over TCP).
  const two = new Uint8Array(good);
  two[5] = 2; // QDCOUNT 2 with one question
  assertEquals(await udpRaw(s.port, two), null);
  assertEquals(await udpRaw(s.port, good.subarray(0, good.length - 3)), null);
  const longLabel = new Uint8Array(good);
  longLabel[12] = 0x40; // a label of 64 bytes
  assertEquals(await udpRaw(s.port, longLabel), null);

  const response = new Uint8Array(good);
  response[2] |= 0x80;
  assertEquals(await udpRaw(s.port, response), null);
  assertEquals(await udpRaw(s.port, new Uint8Array([1, 2, 3])), null);

  // Still serving.
  assertEquals(decode(await udpRaw(s.port, good)).rcode, "NOERROR");
});

Deno.test("DNS listener speaks EDNS0: OPT echoed, 1232-byte payload, BADVERS above version 0", async () => {
  if (!haveSystem("dns edns", ["dig"])) return;
  await using s = await startDnsStack();
  await populate(s);
  const withOpt = await dig(s.port, ["www.example.test", "A"]);
  assertStringIncludes(withOpt.opt.join("\n"), "udp: 1232");
  assertStringIncludes(withOpt.opt.join("\n"), "version: 0");
  const doBit = await dig(s.port, ["+dnssec", "www.example.test", "A"]);
  assertMatch(doBit.opt.join("\n"), /flags: do;/);
  const without = await dig(s.port, ["+noedns", "www.example.test", "A"]);
  assertEquals(without.opt, []);
  assertEquals(without.answer.length, 1);
  const v1 = await dig(s.port, ["+edns=1", "+noednsnegotiation", "www.example.test", "A"]);
  assertEquals(v1.status, "BADVERS");
  assertEquals(v1.answer, []);
  assertStringIncludes(v1.opt.join("\n"), "version: 0");
});

Deno.test("DNS listener sets TC when an answer does not fit UDP and gives it whole over TCP", async () => {
  if (!haveSystem("dns truncation", ["dig", "kdig"])) return;
  await using s = await startDnsStack();
  await populate(s);
  const udp = await dig(s.port, ["+ignore", "big.example.test", "TXT"]);
  assert(udp.flags.includes("tc"), `expected TC, got ${udp.flags}`);
  assertEquals(udp.answer, []);
  for (const size of ["512", "4096"]) {
    const small = await dig(s.port, ["+ignore", `+bufsize=${size}`, "big.example.test", "TXT"]);
    assert(small.flags.includes("tc"), `bufsize ${size}: expected TC`);
  }
  // dig retries over TCP on its own and gets all eight records.
  const fallback = await dig(s.port, ["big.example.test", "TXT"]);
  assertEquals(fallback.answer.length, 8);
  assert(!fallback.flags.includes("tc"));
  assertStringIncludes(fallback.raw, "(TCP)");
  const k = await run("kdig", [
    `@127.0.0.1`,
    "-p",
    String(s.port),
    "+norec",
    "big.example.test",
    "TXT",
  ]);
  assertEquals(
    k.stdout.split("\n").filter((l) => /\sTXT\s/.test(l) && !l.startsWith(";")).length,
    8,
  );
  assertStringIncludes(k.stdout, "TCP");
});

Deno.test("DNS listener echoes the query name's case in question and answer", async () => {
  if (!haveSystem("dns case echo", ["dig", "kdig"])) return;
  await using s = await startDnsStack();
  await populate(s);
  for (
    const name of ["WwW.ExAmPlE.TeSt", "www.example.test", "WWW.EXAMPLE.TEST", "wWw.eXaMpLe.tEsT"]
  ) {
    // Twice each: the second answer comes from the answer cache.
    for (let i = 0; i < 2; i++) {
      const r = await run("dig", ["@127.0.0.1", "-p", String(s.port), "+norec", name, "A"]);
      assertStringIncludes(r.stdout, `;${name}.\t\tIN\tA`);
      assertMatch(
        r.stdout,
        new RegExp(`\\n${name.replace(/\./g, "\\.")}\\.\\s+600\\s+IN\\s+A\\s+192\\.0\\.2\\.1`),
      );
    }
  }
  const nx = await run("dig", [
    "@127.0.0.1",
    "-p",
    String(s.port),
    "+norec",
    "NoPe.EXAMPLE.test",
    "A",
  ]);
  assertStringIncludes(nx.stdout, ";NoPe.EXAMPLE.test.\t\tIN\tA");
  // kdig lowercases the name it sends; its question and answer must agree.
  const k = await run("kdig", [
    "@127.0.0.1",
    "-p",
    String(s.port),
    "+norec",
    "AlIaS.Example.TEST",
    "A",
  ]);
  assertMatch(k.stdout, /alias\.example\.test\.\s+600\s+IN\s+CNAME\s+www\.example\.test\./i);
});

Deno.test("DNS listener over TCP: length prefix, several queries per connection in order, idle timeout", async () => {
  await using s = await startDnsStack({ tcp: { idleMs: 300, firstQueryMs: 300 } });
  await populate(s);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.port });
  try {
    const frame = (m: Uint8Array) => new Uint8Array([m.length >> 8, m.length & 255, ...m]);
    // Three pipelined queries in one write.
    await conn.write(
      new Uint8Array([
        ...frame(query("www.example.test", "A", 1)),
        ...frame(query("missing.example.test", "A", 2)),
        ...frame(query("big.example.test", "TXT", 3)),
      ]),
    );
    let buf = new Uint8Array(0);
    const replies: ReturnType<typeof dnsPacket.decode>[] = [];
    const chunk = new Uint8Array(65536);
    const deadline = Date.now() + 3000;
    while (replies.length < 3 && Date.now() < deadline) {
      const n = await conn.read(chunk);
      if (n === null) break;
      buf = new Uint8Array([...buf, ...chunk.subarray(0, n)]);
      while (buf.length >= 2 && buf.length >= 2 + ((buf[0] << 8) | buf[1])) {
        const len = (buf[0] << 8) | buf[1];
        replies.push(dnsPacket.decode(Buffer.from(buf.subarray(2, 2 + len))));
        buf = buf.subarray(2 + len);
      }
    }
    assertEquals(replies.map((r) => [r.id, r.rcode]), [[1, "NOERROR"], [2, "NXDOMAIN"], [
      3,
      "NOERROR",
    ]]);
    assertEquals(replies[2].answers.length, 8, "no truncation over TCP");
    // Then silence: the server closes the connection after the idle timeout.
    const started = Date.now();
    const n = await Promise.race([
      conn.read(chunk).catch(() => null),
      new Promise<"hung">((r) => setTimeout(() => r("hung"), 3000)),
    ]);
    assertEquals(n, null);
    assert(Date.now() - started >= 200, "closed before the idle timeout");
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
});

Deno.test("AXFR over TCP works for allowed addresses, is REFUSED for others and NOTIMP over UDP", async () => {
  if (!haveSystem("dns axfr", ["dig"])) return;
  {
    await using s = await startDnsStack();
    await populate(s);
    const r = await run("dig", ["@127.0.0.1", "-p", String(s.port), Z, "AXFR"]);
    const rrs = r.stdout.split("\n").filter((l) => l && !l.startsWith(";"));
    const soas = rrs.filter((l) => /\sSOA\s/.test(l));
    assertEquals(soas.length, 2, "SOA first and last");
    assertMatch(rrs[0], /\sSOA\s/);
    assertMatch(rrs[rrs.length - 1], /\sSOA\s/);
    // SOA twice + apex NS + every stored record.
    assertEquals(rrs.length, 2 + 1 + (await s.service.getZone(Z)).records_count - 1);
    // dig always uses TCP for AXFR: send one over UDP by hand. NOTIMP, as from NSD and Knot.
    const udp = dnsPacket.decode(Buffer.from((await udpRaw(s.port, query(Z, "AXFR")))!));
    assertEquals(udp.rcode, "NOTIMP");
    // IXFR: a full transfer for a serial the journal never held, the SOA alone for the current one
    // (the difference from a journaled serial: ixfr_dig_test.ts).
    const serial = (await s.service.getZone(Z)).serial;
    const never = serial - 1000;
    const ixfrOld = await run("dig", ["@127.0.0.1", "-p", String(s.port), Z, `IXFR=${never}`]);
    assertEquals(
      ixfrOld.stdout.split("\n").filter((l) => l && !l.startsWith(";")).length,
      rrs.length,
    );
    const ixfrNow = await run("dig", ["@127.0.0.1", "-p", String(s.port), Z, `IXFR=${serial}`]);
    const now = ixfrNow.stdout.split("\n").filter((l) => l && !l.startsWith(";"));
    assertEquals(now.length, 1);
    assertMatch(now[0], new RegExp(`SOA.* ${serial} `));
    const notZone = await run("dig", [
      "@127.0.0.1",
      "-p",
      String(s.port),
      "www.example.test",
      "AXFR",
    ], {
      allowFail: true,
    });
    assertStringIncludes(notZone.stdout, "Transfer failed");
  }
  {
    await using s = await startDnsStack({ axfrAllow: ["192.0.2.0/24", "2001:db8::/32"] });
    await populate(s);
    const r = await run("dig", ["@127.0.0.1", "-p", String(s.port), Z, "AXFR"], {
      allowFail: true,
    });
    assertStringIncludes(r.stdout, "Transfer failed");
    const soa = await dig(s.port, ["+tcp", Z, "SOA"]);
    assertEquals(soa.status, "NOERROR", "ordinary TCP queries are still answered");
  }
});

Deno.test("DNS listener over TCP: a client trickling one byte at a time is still closed at the idle deadline", async () => {
  await using s = await startDnsStack({ tcp: { idleMs: 400, firstQueryMs: 400 } });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.port });
  let closed = false;
  conn.read(new Uint8Array(16)).then(
    () => (closed = true),
    () => (closed = true),
  );
  try {
    // A length prefix announcing 300 bytes, then one byte every 100 ms, well inside the 400 ms
    // idle time: each read used to restart the idle timer, so this held the connection for as
    // long as the client kept trickling. The client here keeps at it for 100 bytes; the message
    // is never completed, so only the idle deadline can close the connection before that.
    await conn.write(new Uint8Array([0x01, 0x2c]));
    let trickled = 0;
    while (!closed && trickled < 100) {
      await new Promise((r) => setTimeout(r, 100));
      if (await conn.write(new Uint8Array([0])).catch(() => 0)) trickled++;
    }
    assert(closed, `the connection was still open after ${trickled} trickled bytes`);
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
});

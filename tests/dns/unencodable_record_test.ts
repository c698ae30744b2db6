/**
 * A record stored around the service (written straight into the database, or
 * stored before a rule was added) that cannot be encoded must not silence
 * the rest: the listener leaves it out, logs it once with its id, answers
 * every other name over UDP and TCP, and AXFR of the zone completes.
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { SqliteRecordStatements } from "../../lib/dns/sqlite_record_repo.ts";
import { createLogger } from "../../lib/log/log.ts";
import { dig } from "./dig.ts";
import { startDnsStack } from "./stack.ts";

const Z = "example.test";

Deno.test("a stored record that cannot be encoded is left out and logged once; other names answer over UDP and TCP and AXFR completes", async () => {
  if (!haveSystem("unencodable stored record", ["dig"])) return;
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("warn", (line) => lines.push(JSON.parse(line)));
  await using s = await startDnsStack({ log });
  await s.service.createZone("test", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    default_ttl: 600,
    nameservers: [`ns1.${Z}`],
  });
  const add = (domain: string, value: string) =>
    s.service.createRecord("test", Z, { domain, type: "A", value });
  await add(`ns1.${Z}`, "192.0.2.53");
  await add(`www.${Z}`, "192.0.2.1");
  await add(`mixed.${Z}`, "192.0.2.3");

  // Rows the API would refuse, written as a hand edit or an old version would have.
  const repo = new SqliteRecordStatements(s.store);
  const now = Date.now();
  const bad: [string, string, string, number][] = [
    [`big.${Z}`, "A", "192.0.2.5", 9_999_999_999_999],
    [`huge.${Z}`, "A", "192.0.2.7", 4_294_967_296],
    [`mixed.${Z}`, "A", "192.0.2.4", 4_294_967_296],
    [`sshfp.${Z}`, "SSHFP", `1 1 ${"ab".repeat(40)}`, 600],
    [`garbage.${Z}`, "A", "not-an-address", 600],
    [`type.${Z}`, "TYPE99999", "\\# 0", 600],
    [`txt.${Z}`, "TXT", `"${"x".repeat(70_000)}"`, 600],
  ];
  const ids = bad.map(([name, type, value, ttl]) => {
    const id = crypto.randomUUID();
    repo.insert({ id, zone: Z, name, type, value, ttl, created_at: now, updated_at: now });
    return id;
  });
  await s.index.invalidate(Z);

  for (const transport of [[], ["+tcp"]]) {
    const www = await dig(s.port, [...transport, `www.${Z}`, "A"]);
    assertEquals([www.status, www.answer], ["NOERROR", [`www.${Z}. 600 IN A 192.0.2.1`]]);
    const mixed = await dig(s.port, [...transport, `mixed.${Z}`, "A"]);
    assertEquals(mixed.answer, [`mixed.${Z}. 600 IN A 192.0.2.3`], mixed.raw);
    for (const name of ["big", "huge", "sshfp", "garbage", "type", "txt"]) {
      const left = await dig(s.port, [...transport, `${name}.${Z}`, "ANY"]);
      assertEquals([left.status, left.answer], ["NXDOMAIN", []], left.raw);
    }
  }

  const axfr = await run("dig", ["@127.0.0.1", "-p", String(s.port), Z, "AXFR"], {
    allowFail: true,
  });
  assert(!/Transfer failed|communications error|malformed/i.test(axfr.stdout), axfr.stdout);
  const records = axfr.stdout.split("\n").filter((l) => l.trim() && !l.startsWith(";"))
    .map((l) => l.trim().split(/\s+/));
  assertEquals([records[0][3], records.at(-1)![3]], ["SOA", "SOA"], axfr.stdout);
  const owners = records.map((r) => r[0]);
  for (const ok of [`www.${Z}.`, `mixed.${Z}.`, `ns1.${Z}.`]) assert(owners.includes(ok), ok);
  for (const [name] of bad.filter(([n]) => !n.startsWith("mixed"))) {
    assert(!owners.includes(`${name}.`), `${name} is in the transfer`);
  }

  // Each left-out record was logged once, with its id; rebuilding does not log it again.
  await s.index.invalidate(Z);
  await s.index.load();
  const logged = lines.filter((l) => l.level === "warn").map((l) => l.record_id).sort();
  assertEquals(logged, [...ids].sort());
});

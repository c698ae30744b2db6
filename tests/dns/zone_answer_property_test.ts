/**
 * Properties of records on their whole way out: any set of valid records of
 * every type, created through the service into a zone, comes out of the
 * answer index and the responder (AXFR, and a query per record over TCP)
 * in messages dns-packet decodes, each record carrying the value generated.
 */
import { now } from "../helpers/sync_answer.ts";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assert, assertEquals } from "../assert.ts";
import { systemClock } from "../../lib/clock.ts";
import { sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import { decodedBytes, type DecodedPacket, dnsPacket } from "../../lib/dns/packet.ts";
import { typeCode } from "../../lib/dns/rdata.ts";
import { DnsResponder } from "../../lib/dns/responder.ts";
import { DnsIndex } from "../../lib/dns/zone_index.ts";
import { DomainError } from "../../lib/errors.ts";
import { dnsTestService } from "../helpers/dns_service.ts";
import { tempStore } from "../helpers/temp_store.ts";
import { checkAsync, propertySeed } from "./property.ts";
import { type RdataCase, rdataCase } from "./rdata_arbitraries.ts";
import { lower } from "./rdata_fields.ts";
import { answerData, messageSafe } from "./rdata_oracle.ts";

const runs = propertySeed("zone_answer_property_test");
const ZONE = "prop.test";

const ownerArb = fc.tuple(
  fc.boolean(),
  fc.array(fc.constantFrom("a", "b", "_tcp", "x-1", ...lower.slice(0, 4)), {
    minLength: 1,
    maxLength: 2,
  }),
).map(([wild, ls]) => [...(wild ? ["*"] : []), ...ls, ZONE].join("."));

const recordsArb = fc.array(
  fc.record({ owner: ownerArb, c: rdataCase.filter(messageSafe), ttl: fc.nat(86400) }),
  { minLength: 1, maxLength: 10 },
);

/** A query for `name` and `type` (numeric), as dns-packet encodes it. */
function query(name: string, type: number): Uint8Array {
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 99,
    questions: [{ name, type: `UNKNOWN_${type}`, class: "IN" }],
  }));
}

function decode(msg: Uint8Array): DecodedPacket {
  const p = dnsPacket.decode(Buffer.from(msg));
  assertEquals(decodedBytes(), msg.length, "no bytes after the message");
  return p;
}

/** True when `answers` hold `c` at `owner`, of its type and with the value generated. */
function holds(answers: DecodedPacket["answers"], owner: string, c: RdataCase): boolean {
  // dns-packet's name of the type, as it names it in a question it decodes.
  const type = decode(query(owner, typeCode(c.type))).questions[0].type;
  return answers.some((a) => {
    if (a.name.toLowerCase() !== owner || a.type !== type) return false;
    try {
      assertEquals(answerData(c, (a as { data: unknown }).data), c.decoded);
      return true;
    } catch {
      return false;
    }
  });
}

Deno.test("records created through the service come out of AXFR and answers as dns-packet decodes them", async () => {
  await using t = await tempStore();
  const index = new DnsIndex(sqliteDnsRepos(t.store));
  const { service } = dnsTestService(t.store, { clock: systemClock, index });
  await index.load();
  const responder = new DnsResponder(index, { axfrAllowed: () => true });
  let served = 0;
  await checkAsync(
    fc.asyncProperty(recordsArb, async (recs) => {
      await service.createZone("t", { name: ZONE, admin_email: `h@${ZONE}` });
      try {
        // The zone's rules (CNAME alone, no data below a cut, no duplicates) refuse some: those are left out.
        const created: typeof recs = [];
        for (const r of recs) {
          try {
            await service.createRecord("t", ZONE, {
              domain: r.owner,
              type: r.c.type,
              value: r.c.canonical,
              ttl: r.ttl,
            });
            created.push(r);
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
          }
        }
        const axfr = now(responder.tcp(query(ZONE, 252), "127.0.0.1")).map(decode);
        const answers = axfr.flatMap((p) => p.answers);
        for (const r of created) {
          assert(holds(answers, r.owner, r.c), `AXFR holds ${r.c.canonical}`);
        }
        for (const r of created) {
          const [reply] = now(responder.tcp(query(r.owner, typeCode(r.c.type)), "127.0.0.1"));
          const p = decode(reply);
          // Below a delegation created after it, a record is answered by the referral instead.
          if (!p.flag_aa) continue;
          assert(holds(p.answers, r.owner, r.c), `the answer holds ${r.c.canonical}`);
          served++;
        }
      } finally {
        await service.deleteZone("t", ZONE);
      }
    }),
    runs(150),
  );
  assert(served > 0, "some records were answered");
});

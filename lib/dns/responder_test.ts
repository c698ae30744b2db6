import { now } from "../../tests/helpers/sync_answer.ts";
import { Buffer } from "node:buffer";
import { assertEquals } from "../../tests/assert.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { systemClock } from "../clock.ts";
import { sqliteDnsRepos } from "./dns_repos.ts";
import { dnsPacket } from "./packet.ts";
import { DnsResponder } from "./responder.ts";
import { DnsIndex } from "./zone_index.ts";

function ask(r: DnsResponder, name: string, type: string, id = 1) {
  const q = new Uint8Array(
    dnsPacket.encode({ type: "query", id, questions: [{ name, type, class: "IN" }] }),
  );
  return dnsPacket.decode(Buffer.from(now(r.udp(q, "127.0.0.1"))!));
}

Deno.test("DnsResponder answers from the cache with the new ID and case, and drops the cache when the index changes", async () => {
  await using t = await tempStore();
  const index = new DnsIndex(sqliteDnsRepos(t.store));
  const { service } = dnsTestService(t.store, {
    clock: systemClock,
    nameservers: ["ns1.example.com"],
    index,
  });
  await index.load();
  const r = new DnsResponder(index, { axfrAllowed: () => false });
  await service.createZone("t", { name: "example.com", admin_email: "h@example.com" });
  const rec = await service.createRecord("t", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  const first = ask(r, "www.example.com", "A", 1);
  assertEquals(r.cached, 1);
  const second = ask(r, "WwW.eXample.COM", "A", 2);
  assertEquals(r.cached, 1, "same entry for any case");
  assertEquals([second.id, second.questions[0].name], [2, "WwW.eXample.COM"]);
  assertEquals(second.answers[0].name, "WwW.eXample.COM");
  assertEquals((second.answers[0] as { data: string }).data, "192.0.2.1");
  assertEquals(first.answers.length, second.answers.length);
  await service.updateRecord("t", "example.com", rec.id, { value: "192.0.2.2" });
  assertEquals(
    (ask(r, "www.example.com", "A", 3).answers[0] as { data: string }).data,
    "192.0.2.2",
  );
  await service.deleteZone("t", "example.com");
  assertEquals(ask(r, "www.example.com", "A", 4).rcode, "REFUSED");
});

Deno.test("DnsResponder fully decodes messages beyond a bare question: extra records answered, two OPTs FORMERR", async () => {
  await using t = await tempStore();
  const index = new DnsIndex(sqliteDnsRepos(t.store));
  const { service } = dnsTestService(t.store, {
    clock: systemClock,
    nameservers: ["ns1.example.com"],
    index,
  });
  await service.createZone("t", { name: "example.com", admin_email: "h@example.com" });
  const r = new DnsResponder(index, { axfrAllowed: () => false });
  const opt = { name: ".", type: "OPT", udpPayloadSize: 4096, flags: 0, options: [] };
  const extra = { name: "x.example.com", type: "TXT", ttl: 0, data: "hi" };
  const send = (additionals: unknown[]) =>
    dnsPacket.decode(Buffer.from(
      now(r.udp(
        new Uint8Array(dnsPacket.encode({
          type: "query",
          id: 9,
          questions: [{ name: "example.com", type: "SOA" }],
          additionals: additionals as never,
        })),
        "127.0.0.1",
      ))!,
    ));
  const ok = send([extra, opt]);
  assertEquals([ok.rcode, ok.answers.length, ok.additionals.some((a) => a.type === "OPT")], [
    "NOERROR",
    1,
    true,
  ]);
  assertEquals(send([opt, opt]).rcode, "FORMERR");
});

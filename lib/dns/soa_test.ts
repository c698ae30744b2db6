import { Buffer } from "node:buffer";
import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { dnsPacket } from "./packet.ts";
import { normalizeEmail, soaWire } from "./soa.ts";

/** A domain of `n` characters: labels of 63 and a last one of "x" ending in "a". */
function domainOf(n: number): string {
  const labels: string[] = [];
  let left = n;
  while (left > 64) {
    labels.push("b".repeat(63));
    left -= 64;
  }
  labels.push("a".repeat(left));
  return labels.join(".");
}

Deno.test("normalizeEmail() refuses an address whose SOA mailbox name would pass 255 bytes on the wire", () => {
  // Local part 50 + domain 202: 51 + 204 = 255 bytes as an RNAME; one more character is 256.
  const fits = `${"l".repeat(50)}@${domainOf(202)}`;
  assertEquals(normalizeEmail(fits), fits);
  const err = assertThrows(
    () => normalizeEmail(`${"l".repeat(50)}@${domainOf(203)}`, "admin_email"),
    ValidationError,
    "too long",
  );
  assertEquals((err as ValidationError).field, "admin_email");
  assertThrows(() => normalizeEmail(`${"l".repeat(63)}@${domainOf(190)}`), ValidationError);

  // The longest accepted one encodes to an SOA that dns-packet reads back.
  const wire = soaWire({
    name: "example",
    primary: "ns.example",
    admin_email: fits,
    serial: 1,
    refresh: 3600,
    retry: 900,
    expire: 1209600,
    minimum: 300,
    default_ttl: 3600,
  });
  const buf = Buffer.concat([Buffer.from([wire.length >> 8, wire.length & 255]), wire]);
  const soa = (dnsPacket.soa as unknown as { decode(b: Buffer): { rname: string } }).decode(buf);
  assertEquals(soa.rname, `${"l".repeat(50)}.${domainOf(202)}`);
});

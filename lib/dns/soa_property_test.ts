/**
 * Properties of the SOA codec (soa.ts), which the answer index encodes for
 * every zone: from any zone fields the service accepts, the RDATA decodes
 * with dns-packet to those fields, and the presentation form reads back
 * through the zone-file parser to the same fields.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assertEquals } from "../../tests/assert.ts";
import { check, propertySeed } from "../../tests/dns/property.ts";
import { hostName, lower } from "../../tests/dns/rdata_fields.ts";
import { ValidationError } from "../errors.ts";
import { dnsPacket } from "./packet.ts";
import { normalizeEmail, parseSoa, SOA_LIMITS, soaValue, soaWire } from "./soa.ts";
import { splitValue } from "./tokens.ts";

const runs = propertySeed("soa_property_test");

/** Characters RFC 5322 allows in a dot-atom, as the admin e-mail takes them. */
const atomChar = fc.constantFrom(...lower + "ABCXYZ0123456789!#$%&'*+/=?^_`{|}~-");
const localPart = fc.array(fc.string({ unit: atomChar, minLength: 1, maxLength: 20 }), {
  minLength: 1,
  maxLength: 4,
}).map((atoms) => atoms.join("."));

/** Names near the 253-character limit too, where the mailbox name grows past what the wire holds. */
const longName = fc.array(
  fc.string({ unit: fc.constantFrom(...lower), minLength: 40, maxLength: 63 }),
  { minLength: 1, maxLength: 4 },
).map((ls) => [...ls, "example"].join(".")).filter((n) => n.length <= 253);

const timer = (key: keyof typeof SOA_LIMITS) =>
  fc.integer({ min: SOA_LIMITS[key][0], max: SOA_LIMITS[key][1] });

const zoneFields = fc.record({
  name: hostName(false),
  primary: fc.oneof(hostName(false), longName),
  local: fc.oneof(localPart, fc.string({ unit: atomChar, minLength: 50, maxLength: 63 })),
  domain: fc.oneof(hostName(false), longName),
  serial: fc.integer({ min: 0, max: 4294967295 }),
  refresh: timer("refresh"),
  retry: timer("retry"),
  expire: timer("expire"),
  minimum: timer("minimum"),
  default_ttl: timer("default_ttl"),
});

type ZoneFields = typeof zoneFields extends fc.Arbitrary<infer T> ? T : never;

/** The zone's SOA source, or null when the address is refused (a ValidationError, as the API answers). */
function accepted(f: ZoneFields) {
  let admin_email: string;
  try {
    admin_email = normalizeEmail(`${f.local}@${f.domain}`);
  } catch (err) {
    if (err instanceof ValidationError) return null;
    throw err;
  }
  return { ...f, admin_email };
}

Deno.test("soaWire(): the SOA of any zone fields accepted decodes with dns-packet to those fields", () => {
  check(
    fc.property(zoneFields, (f) => {
      const z = accepted(f);
      if (!z) return;
      const wire = soaWire(z);
      const buf = Buffer.alloc(wire.length + 2);
      buf.writeUInt16BE(wire.length, 0);
      buf.set(wire, 2);
      const { serial, refresh, retry, expire, minimum } = z;
      // packet.ts types the encoder only; the decoder is the oracle here.
      const codec = dnsPacket.soa as unknown as { decode(b: Buffer): unknown };
      assertEquals(codec.decode(buf), {
        mname: z.primary,
        rname: `${z.local.replace(/\./g, "\\.")}.${z.domain}`,
        ...{ serial, refresh, retry, expire, minimum },
      });
    }),
    runs(2000),
  );
});

Deno.test("soaValue() reads back through the zone-file parser (parseSoa) to the same fields", () => {
  check(
    fc.property(zoneFields, (f) => {
      const z = accepted(f);
      if (!z) return;
      const { primary, admin_email, serial, refresh, retry, expire, minimum } = z;
      assertEquals(
        parseSoa(splitValue(soaValue(z)), z.name),
        { primary, admin_email, serial, refresh, retry, expire, minimum },
      );
    }),
    runs(2000),
  );
});

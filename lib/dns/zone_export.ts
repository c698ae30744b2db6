/** Zone export: a zone as the RFC 1035 master file that BIND and NSD read. */
import { type DnsContext, zoneOf } from "./dns_context.ts";
import { primaryOf } from "./soa_serial.ts";
import { soaValue } from "./soa.ts";
import { serializeZoneFile } from "./zone_file.ts";

/** The zone as an RFC 1035 master file; NotFoundError when absent. */
export async function exportZone(ctx: DnsContext, zone: string): Promise<string> {
  const z = await zoneOf(ctx, zone);
  const nsTtl = z.ns_ttl ?? z.default_ttl;
  const ns = z.nameservers.map((h) => ({ name: z.name, type: "NS", ttl: nsTtl, value: `${h}.` }));
  return serializeZoneFile({
    name: z.name,
    default_ttl: z.default_ttl,
    soa: { ttl: z.default_ttl, value: soaValue({ ...z, primary: primaryOf(z) }) },
    records: [...ns, ...await ctx.records.data(z.name)],
  });
}

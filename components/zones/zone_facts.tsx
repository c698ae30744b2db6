import { Fact, Facts } from "@/components/fact.tsx";
import { formatTime } from "@/components/format.ts";
import type { ZoneDetails } from "@/lib/dns/dns_service.ts";

/** Serial, size, nameservers, contact and timers of a zone. */
export function ZoneFacts({ zone }: { zone: ZoneDetails }) {
  return (
    <Facts>
      <Fact label="Serial">{zone.serial}</Fact>
      <Fact label="Records">{zone.records_count}</Fact>
      <Fact label="Nameservers">{zone.nameservers.join(", ")}</Fact>
      <Fact label="Contact">{zone.admin_email}</Fact>
      <Fact label="Default TTL">{zone.default_ttl} s</Fact>
      <Fact label="Changed">{formatTime(zone.updated_at)}</Fact>
    </Facts>
  );
}

import { formatCount, formatTime } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { ZoneSummary } from "@/lib/dns/dns_service.ts";

const COLUMNS: Column[] = [
  { label: "Zone" },
  { label: "Records", num: true },
  { label: "Changed" },
];

/** The authoritative zones, each linking to its page; live: fetched again on `ZoneChanged`. */
export function ZonesTable({ zones, canEdit }: { zones: ZoneSummary[]; canEdit: boolean }) {
  return (
    <section aria-labelledby="zones">
      <div class="row spread">
        <h2 id="zones">Authoritative zones</h2>
        <LiveRegion region="zones-table" on={[{ type: "ZoneChanged" }]} />
      </div>
      <div id="zones-table">
        {zones.length === 0
          ? (
            <p class="empty">
              No zone yet. {canEdit ? "Create one or import a zone file below." : ""}
            </p>
          )
          : (
            <Table columns={COLUMNS}>
              {zones.map((z) => <ZoneRow key={z.name} zone={z} />)}
            </Table>
          )}
      </div>
    </section>
  );
}

function ZoneRow({ zone: z }: { zone: ZoneSummary }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/zones/${encodeURIComponent(z.name)}`}>{z.name}</a>
      </th>
      <td class="num">{formatCount(z.records_count)}</td>
      <td>{formatTime(z.updated_at)}</td>
    </tr>
  );
}

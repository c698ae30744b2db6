import type { DnsRecord } from "@/lib/dns/dns_service.ts";
import { RECORD_TYPES } from "@/lib/dns/rdata.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";

const COLUMNS: Column[] = [
  { label: "Name" },
  { label: "Type" },
  { label: "TTL", num: true },
  { label: "Value" },
];

/**
 * The zone's records with a type filter; operators get edit and delete links.
 * Live: fetched again on the zone's `ZoneChanged`.
 */
export function RecordsSection(
  { zone, records, type, canEdit }: {
    zone: string;
    records: DnsRecord[];
    /** The type filtered on ("" for all). */
    type: string;
    canEdit: boolean;
  },
) {
  return (
    <section aria-labelledby="records">
      <div class="row spread">
        <h2 id="records">Records</h2>
        <div class="row">
          <TypeFilter type={type} />
          <LiveRegion region="records-table" on={[{ type: "ZoneChanged", where: { zone } }]} />
        </div>
      </div>
      <div id="records-table">
        {records.length === 0
          ? (
            <p class="empty">
              {type ? `No ${type} record in this zone.` : "This zone has no records."}
            </p>
          )
          : <RecordsTable zone={zone} records={records} canEdit={canEdit} />}
      </div>
    </section>
  );
}

function TypeFilter({ type }: { type: string }) {
  return (
    <form method="get" class="row" role="search" aria-label="Filter records by type">
      <label class="inline-label">
        Type
        <select name="type">
          <option value="">All types</option>
          {RECORD_TYPES.map((t) => <option key={t} value={t} selected={t === type}>{t}</option>)}
        </select>
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

function RecordsTable(
  { zone, records, canEdit }: { zone: string; records: DnsRecord[]; canEdit: boolean },
) {
  const base = `/zones/${encodeURIComponent(zone)}`;
  return (
    <Table
      class="records"
      label={`Records of ${zone}`}
      columns={[
        ...COLUMNS,
        canEdit && { label: <span class="visually-hidden">Actions</span> },
      ]}
    >
      {records.map((r) => (
        <tr data-record-id={r.id}>
          <th scope="row">{r.domain}</th>
          <td>
            <code>{r.type}</code>
          </td>
          <td class="num">{r.ttl}</td>
          <td class="value">
            <code>{r.value}</code>
          </td>
          {canEdit && <RecordActions base={base} record={r} />}
        </tr>
      ))}
    </Table>
  );
}

/** Edit and delete links; the SOA is changed through the zone's settings. */
function RecordActions({ base, record: r }: { base: string; record: DnsRecord }) {
  return (
    <td class="row-actions">
      {r.type === "SOA" ? <span class="muted">from the zone's settings</span> : (
        <>
          <a href={`${base}/records/${r.id}`}>
            Edit<span class="visually-hidden">{` ${r.type} ${r.domain}`}</span>
          </a>
          <a href={`${base}/records/${r.id}/delete`} class="danger">
            Delete
            <span class="visually-hidden">{` ${r.type} ${r.domain}`}</span>
          </a>
        </>
      )}
    </td>
  );
}

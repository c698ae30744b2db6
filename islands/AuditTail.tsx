import { batch, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";
import { perFrame } from "./_runtime/schedule.ts";

export interface AuditRow {
  id: number | string;
  time: string;
  actor: string;
  event_type: string;
  message: string;
  resource_type: string;
  resource_id: string;
}

export interface AuditTailProps {
  records: AuditRow[];
  /** Only records matching these fields are appended live. */
  filter: { event_type?: string; resource_type?: string; actor?: string };
  /** Live updates only make sense on the first page. */
  live: boolean;
  /** Cap on rows kept in the table. */
  max: number;
}

function matches(row: AuditRow, filter: AuditTailProps["filter"]): boolean {
  return (!filter.event_type || row.event_type === filter.event_type) &&
    (!filter.resource_type || row.resource_type === filter.resource_type) &&
    (!filter.actor || row.actor === filter.actor);
}

const fmt = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, "Z");

/** The audit table; on the first page, new records stream in at the top. */
export default function AuditTail({ records, filter, live, max }: AuditTailProps) {
  const rows = useSignal(records);
  const fresh = useSignal<Set<string>>(new Set());
  useEffect(() => {
    if (!live) return;
    // Records are added once per animation frame, newest first, so a burst renders once.
    let pending: AuditRow[] = [];
    const flush = perFrame(() => {
      const seen = new Set(rows.value.map((r) => String(r.id)));
      const added = pending.reverse().filter((r) => !seen.has(String(r.id)));
      pending = [];
      if (added.length === 0) return;
      batch(() => {
        rows.value = [...added, ...rows.value].slice(0, max);
        fresh.value = new Set([...fresh.value, ...added.map((r) => String(r.id))]);
      });
    });
    return subscribe("AuditEvent", (event) => {
      const row = event.payload as unknown as AuditRow;
      if (!matches(row, filter)) return;
      pending.push(row);
      flush();
    });
  }, [live]);

  return (
    <section aria-labelledby="audit-records">
      <div class="row spread">
        <h2 id="audit-records">Records</h2>
        {live && <LiveStatus />}
      </div>
      {rows.value.length === 0
        ? <p class="empty">No audit records match these filters.</p>
        : (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Audit records table">
            <table class="audit">
              <thead>
                <tr>
                  <th scope="col">Time (UTC)</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Event</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody aria-live="polite">
                {rows.value.map((r) => (
                  <tr
                    key={r.id}
                    data-audit-id={r.id}
                    class={fresh.value.has(String(r.id)) ? "fresh" : undefined}
                  >
                    <td>
                      <time datetime={r.time}>{fmt(r.time)}</time>
                    </td>
                    <td>{r.actor}</td>
                    <td>
                      <code>{r.event_type}</code>
                    </td>
                    <td>
                      {r.resource_type}
                      {r.resource_id ? <span class="muted">{r.resource_id}</span> : null}
                    </td>
                    <td>{r.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}

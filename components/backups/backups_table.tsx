import { formatBytes, formatTime } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { BackupManifest } from "@/lib/backup/manifest.ts";

const COLUMNS: Column[] = [
  { label: "Backup" },
  { label: "Created" },
  { label: "Size", num: true },
  { label: "Kind" },
  { label: "Schema", num: true },
  { label: "Actions" },
];

/**
 * Every backup, newest first. Live on `BackupRestored` (a restore adds a
 * safety backup and may have been started from another session).
 */
export function BackupsTable({ backups }: { backups: BackupManifest[] }) {
  return (
    <section aria-labelledby="backups">
      <div class="row spread">
        <h2 id="backups">Backups</h2>
        <LiveRegion region="backups-table" on={[{ type: "BackupRestored" }]} />
      </div>
      <div id="backups-table">
        {backups.length === 0 ? <p class="empty">No backup yet.</p> : (
          <Table columns={COLUMNS}>
            {backups.map((b) => (
              <tr key={b.id} data-backup-id={b.id}>
                <th scope="row">
                  <code>{b.id}</code>
                </th>
                <td>{formatTime(b.created_at)} by {b.created_by}</td>
                <td class="num">{formatBytes(b.size)}</td>
                <td>{b.kind}</td>
                <td class="num">{b.schema_version}</td>
                <td>
                  <span class="row">
                    <a href={`/backups/${b.id}/download`} download>Download</a>
                    <a href={`/backups/${b.id}/restore`}>Restore…</a>
                    <a href={`/backups/${b.id}/delete`}>Delete…</a>
                  </span>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </div>
    </section>
  );
}

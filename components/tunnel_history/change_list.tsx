import { Table } from "@/components/table.tsx";
import { ChangeCard } from "@/components/history/change_card.tsx";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { fieldChanges } from "@/lib/tunnel/history/schema.ts";

/**
 * The changes of a peer, a firewall rule or a route, newest first: who, when,
 * what, and each field that changed (old → new). Operators get a revert link.
 */
export function ChangeList(
  { changes, base, canEdit }: { changes: TunnelChange[]; base: string; canEdit: boolean },
) {
  if (changes.length === 0) return <p class="empty">No change kept yet.</p>;
  return (
    <ol class="stack history">
      {changes.map((c) => (
        <ChangeCard
          key={c.id}
          change={c}
          revertHref={canEdit ? `${base}/history/${c.id}/revert` : undefined}
        >
          <FieldDiff change={c} />
        </ChangeCard>
      ))}
    </ol>
  );
}

const shown = (v: unknown) => v === null || v === undefined || v === "" ? "—" : String(v);

/** Each field that changed: its value before and after ("—" for none). */
export function FieldDiff({ change }: { change: TunnelChange }) {
  const fields = fieldChanges(change);
  const state = change.before === null ? "created" : change.after === null ? "deleted" : null;
  return (
    <>
      {state && <p>{state === "created" ? "Created with:" : "Deleted; it was:"}</p>}
      <Table
        class="diff-fields"
        label={`Fields of change ${change.id}`}
        columns={[{ label: "Field" }, { label: "Before" }, { label: "After" }]}
      >
        {fields.map((f) => (
          <tr key={f.field}>
            <th scope="row">
              <code>{f.field}</code>
            </th>
            <td class="removed">{shown(f.before)}</td>
            <td class="added">{shown(f.after)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

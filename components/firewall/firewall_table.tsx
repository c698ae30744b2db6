import { Badge } from "@/components/badge.tsx";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { FirewallRuleView } from "@/lib/tunnel/firewall/firewall_service.ts";

const COLUMNS: Column[] = [
  { label: "#", num: true },
  { label: "Name" },
  { label: "Direction" },
  { label: "Interface" },
  { label: "Protocol" },
  { label: "Port", num: true },
  { label: "Source" },
  { label: "Action" },
  { label: "State" },
];

/**
 * The rules in evaluation order (the first that matches decides), live:
 * fetched again when a rule or an interface changes.
 */
export function FirewallTable({ rules, canEdit }: { rules: FirewallRuleView[]; canEdit: boolean }) {
  return (
    <section aria-labelledby="rules">
      <div class="row spread">
        <h2 id="rules">Rules</h2>
        <LiveRegion
          region="rules-table"
          on={[{ type: "FirewallChanged" }, { type: "InterfaceChanged" }]}
        />
      </div>
      <div id="rules-table">
        {rules.length === 0
          ? (
            <p class="empty">
              No rule yet: Palisade's table accepts everything.{" "}
              {canEdit ? "Add a rule below." : "An operator can add one."}
            </p>
          )
          : (
            <Table
              class="rules"
              columns={[
                ...COLUMNS,
                { label: <span class="visually-hidden">Actions</span> },
              ]}
            >
              {rules.map((r) => <RuleRow key={r.id} rule={r} canEdit={canEdit} />)}
            </Table>
          )}
      </div>
    </section>
  );
}

const any = <span class="muted">any</span>;

function RuleRow({ rule: r, canEdit }: { rule: FirewallRuleView; canEdit: boolean }) {
  return (
    <tr data-rule-id={r.id}>
      <td class="num">{r.position}</td>
      <th scope="row">{r.name}</th>
      <td>{r.direction}</td>
      <td>
        {r.interface_id ? <a href={`/tunnels/${r.interface_id}`}>{r.interface_name}</a> : any}
      </td>
      <td>{r.protocol}</td>
      <td class="num">{r.port ?? any}</td>
      <td>{r.source ? <code>{r.source}</code> : any}</td>
      <td>
        <strong>{r.action}</strong>
      </td>
      <td data-cell="state">
        <Badge status={r.enabled ? "enabled" : "disabled"} />
      </td>
      <td class="row-actions">
        {canEdit && (
          <>
            <RowAction rule={r} action={r.enabled ? "disable" : "enable"} />
            <a href={`/firewall/${r.id}/delete`} class="danger">
              Delete<span class="visually-hidden">{` rule ${r.name}`}</span>
            </a>
          </>
        )}
        <a href={`/firewall/${r.id}/history`}>
          History<span class="visually-hidden">{` rule ${r.name}`}</span>
        </a>
      </td>
    </tr>
  );
}

/** Enable or disable one rule: a one-button form posting to the page. */
function RowAction({ rule: r, action }: { rule: FirewallRuleView; action: "enable" | "disable" }) {
  return (
    <form method="post" class="inline">
      <input type="hidden" name="_action" value={action} />
      <input type="hidden" name="id" value={r.id} />
      <button type="submit">
        {action === "enable" ? "Enable" : "Disable"}
        <span class="visually-hidden">{` rule ${r.name}`}</span>
      </button>
    </form>
  );
}

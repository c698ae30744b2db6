/**
 * The reconcile plan as a diff of stored (desired) against live (the host):
 * one section per interface, one row per difference, each marked by a sign
 * and words (missing on the host, extra on the host, differs) so the meaning
 * never rests on colour.
 */
import { Badge } from "@/components/badge.tsx";
import { Table } from "@/components/table.tsx";
import type { ReconcileItem, ReconcilePlan } from "@/lib/tunnel/reconcile.ts";

type Side = "missing" | "extra" | "differs";

const SIDES: Record<Side, { sign: string; words: string }> = {
  missing: { sign: "+", words: "Missing on the host" },
  extra: { sign: "−", words: "Extra on the host" },
  differs: { sign: "~", words: "Differs" },
};

/** Which side of the diff an item is on, from its kind. */
export function sideOf(kind: ReconcileItem["kind"]): Side {
  if (kind.endsWith("_missing")) return "missing";
  if (kind.endsWith("_unexpected")) return "extra";
  return "differs";
}

const SUBJECTS: Partial<Record<ReconcileItem["kind"], string>> = {
  interface_missing: "Interface",
  public_key: "Public key",
  listen_port: "Listen port",
  mtu: "MTU",
  address: "Address",
  link_state: "Link state",
  route_missing: "Route",
  route_unexpected: "Route",
  route_changed: "Route",
  firewall_table_missing: "Firewall table",
  firewall_rule_missing: "Firewall rule",
  firewall_rule_unexpected: "Firewall rule",
  firewall_rule_changed: "Firewall rule",
  firewall_order: "Firewall rule order",
  firewall_chain: "Firewall chain",
};

/** What the item is about, in words: "Peer alice (allowed_ips)", "MTU". */
function Subject({ item }: { item: ReconcileItem }) {
  if (item.kind.startsWith("peer_")) {
    const who = item.peer_name ?? "Unknown peer";
    return (
      <>
        Peer <strong>{who}</strong>
        {item.field && <>{` (${item.field})`}</>}
        {item.public_key && (
          <>
            <br />
            <code class="key">{item.public_key}</code>
          </>
        )}
      </>
    );
  }
  return <>{SUBJECTS[item.kind] ?? item.kind}</>;
}

function Value({ value }: { value: ReconcileItem["desired"] }) {
  return value === null ? <span class="muted">absent</span> : <code>{String(value)}</code>;
}

function DriftRow({ item }: { item: ReconcileItem }) {
  const side = sideOf(item.kind);
  const { sign, words } = SIDES[side];
  return (
    <tr class={`drift drift-${side}`} data-kind={item.kind} data-side={side}>
      <td>
        <span class="drift-sign" aria-hidden="true">{sign}</span> {words}
      </td>
      <td>
        <Subject item={item} />
      </td>
      <td>
        <Value value={item.desired} />
      </td>
      <td>
        <Value value={item.live} />
      </td>
      <td>{item.action}</td>
    </tr>
  );
}

/** Items grouped by interface, in plan order; host-wide items (no interface) last. */
function groups(items: ReconcileItem[]): [string | null, ReconcileItem[]][] {
  const by = new Map<string | null, ReconcileItem[]>();
  for (const i of items) {
    const list = by.get(i.interface) ?? [];
    list.push(i);
    by.set(i.interface, list);
  }
  return [...by].sort(([a], [b]) => (a === null ? 1 : 0) - (b === null ? 1 : 0));
}

/** "2 missing on the host, 1 extra on the host, 1 differs". */
export function countWords(items: ReconcileItem[]): string {
  const n: Record<Side, number> = { missing: 0, extra: 0, differs: 0 };
  for (const i of items) n[sideOf(i.kind)]++;
  return (Object.keys(SIDES) as Side[]).filter((s) => n[s] > 0)
    .map((s) => `${n[s]} ${SIDES[s].words.toLowerCase()}`).join(", ");
}

/** The plan's state in words: host layer off, in sync, or how many differences. */
export function PlanSummary({ plan }: { plan: ReconcilePlan }) {
  if (!plan.host_active) {
    return (
      <p class="plan-summary" data-plan="off">
        <Badge status="off" label="Host layer off" />{" "}
        The stored state is not compared with the host (host driver "{plan.driver}"), so there is
        nothing to reconcile.
      </p>
    );
  }
  if (plan.items.length === 0) {
    return (
      <p class="plan-summary" data-plan="in-sync">
        <Badge status="ok" label="In sync" /> The host matches the stored state.
      </p>
    );
  }
  return (
    <p class="plan-summary" data-plan="drift">
      <Badge status="warn" label="Drift" />{" "}
      {plan.items.length === 1 ? "1 difference" : `${plan.items.length} differences`}{" "}
      between the stored state and the host: {countWords(plan.items)}.
    </p>
  );
}

/** One section per interface with its differences. */
export function PlanDiff({ items }: { items: ReconcileItem[] }) {
  return (
    <>
      {groups(items).map(([iface, list]) => {
        const id = `drift-${iface ?? "host"}`;
        return (
          <section key={id} class="card stack" aria-labelledby={id} data-interface={iface ?? ""}>
            <h2 id={id}>{iface ? `Interface ${iface}` : "Host (no interface)"}</h2>
            <Table
              class="drift-table"
              columns={[
                { label: "Change" },
                { label: "What" },
                { label: "Stored" },
                { label: "Live" },
                { label: "Apply will" },
              ]}
            >
              {list.map((i, k) => <DriftRow key={k} item={i} />)}
            </Table>
          </section>
        );
      })}
    </>
  );
}

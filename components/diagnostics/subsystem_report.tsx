/**
 * The diagnostics page's parts: the overview of every subsystem (its status
 * and links to its section and to its own view) and one subsystem's checks
 * with their status, message and details.
 */
import { Badge } from "@/components/badge.tsx";
import { Table } from "@/components/table.tsx";
import type { SubsystemReport } from "@/lib/system/diagnostics.ts";

/** Details as one compact line: `key=value` pairs, nested values as JSON. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details).map(([k, v]) =>
    `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`
  ).join(" ");
}

/** The status of each subsystem, linking to its section on the page and to its own view. */
export function SubsystemOverview({ reports }: { reports: SubsystemReport[] }) {
  return (
    <Table
      class="diagnostics-overview"
      columns={[{ label: "Subsystem" }, { label: "Status" }, { label: "Checks", num: true }]}
    >
      {reports.map((r) => (
        <tr key={r.subsystem} data-subsystem={r.subsystem}>
          <td>
            <a href={`#subsystem-${r.subsystem}`}>{r.subsystem}</a>{" "}
            <a class="muted" href={`/diagnostics?subsystem=${encodeURIComponent(r.subsystem)}`}>
              (alone)
            </a>
          </td>
          <td>
            <Badge status={r.status} />
          </td>
          <td class="num">{r.checks.length}</td>
        </tr>
      ))}
    </Table>
  );
}

/** One subsystem's checks, under a heading with its status. */
export function SubsystemSection({ report }: { report: SubsystemReport }) {
  const id = `subsystem-${report.subsystem}`;
  return (
    <section id={id} aria-labelledby={`${id}-h`} data-subsystem-section={report.subsystem}>
      <h2 id={`${id}-h`}>
        {report.subsystem} <Badge status={report.status} />
      </h2>
      <Table
        label={`Checks of ${report.subsystem}`}
        columns={[{ label: "Check" }, { label: "Status" }, { label: "Message" }, {
          label: "Details",
        }]}
      >
        {report.checks.map((c) => (
          <tr key={c.name} data-check={`${report.subsystem}.${c.name}`}>
            <td>{c.name}</td>
            <td>
              <Badge status={c.status} />
            </td>
            <td>{c.message}</td>
            <td>
              <code class="details">{detailsText(c.details)}</code>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

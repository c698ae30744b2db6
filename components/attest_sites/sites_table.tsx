/** The sites of the sites page, each with its figures since start. */
import { formatCount } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import type { SiteFiguresAll, SiteView } from "@/lib/attest/sites/site_service.ts";
import { breakdown } from "./site_figures.tsx";

export type SiteWithFigures = SiteView & { figures: SiteFiguresAll };

const COLUMNS: Column[] = [
  { label: "Name" },
  { label: "Site key" },
  { label: "Origins" },
  { label: "Sessions", num: true },
  { label: "Refused /init", num: true },
  { label: "Accepted", num: true },
  { label: "Rejected", num: true },
  { label: "Tokens issued", num: true },
  { label: "Verified", num: true },
  { label: "Failed", num: true },
  { label: "Reused", num: true },
];

export function SitesTable({ sites }: { sites: SiteWithFigures[] }) {
  if (sites.length === 0) {
    return <p class="empty">No site yet. Register one to embed the script with its key.</p>;
  }
  return (
    <Table columns={COLUMNS} class="sites">
      {sites.map((s) => (
        <tr key={s.id} data-site-id={s.id}>
          <th scope="row">
            <a href={`/attestation/sites/${s.id}`}>{s.name}</a>
          </th>
          <td>
            <code>{s.site_key}</code>
          </td>
          <td>{s.origins.join(", ")}</td>
          <td class="num">{formatCount(s.figures.sessionsCreated)}</td>
          <td class="num">{formatCount(s.figures.initRefused)}</td>
          <td class="num">{formatCount(s.figures.accepted)}</td>
          <td class="num" title={breakdown(s.figures.rejected)}>
            {formatCount(s.figures.rejectedTotal)}
          </td>
          <td class="num">{formatCount(s.figures.tokens.issued)}</td>
          <td class="num">{formatCount(s.figures.tokens.verified)}</td>
          <td class="num" title={breakdown(Object.entries(s.figures.tokens.failed))}>
            {formatCount(s.figures.tokens.failedTotal)}
          </td>
          <td class="num">{formatCount(s.figures.tokens.reused)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** A site's secret, on the answer that made it only (creation, rotation). */
export function SiteSecret({ name, secret, what }: { name: string; secret: string; what: string }) {
  return (
    <section class="card stack" aria-labelledby="site-secret">
      <h2 id="site-secret">Site "{name}" {what}</h2>
      <p class="notice" role="alert">
        Copy the secret now: it will not be shown again. Only its hash is kept; a lost secret must
        be rotated. Your server sends it to /siteverify; never put it in a page.
      </p>
      <pre id="site-secret-value">{secret}</pre>
      <CopyButton target="site-secret-value" label="Copy secret" />
    </section>
  );
}

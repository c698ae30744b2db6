/**
 * The DNSSEC panel of the zone page: whether the zone is signed; when it is,
 * its keys, the DS records to give the registrar as master-file lines, and
 * (for operators) the links to the key actions' confirmation pages; when it
 * is not, the enable form (for operators).
 */
import { Badge } from "@/components/badge.tsx";
import { formatTime } from "@/components/format.ts";
import { type Column, Table } from "@/components/table.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import { dsPresentation } from "@/lib/dns/dnssec/ds.ts";
import type { DnssecKey, DnssecStatus } from "@/lib/dns/dns_service.ts";
import type { FormState } from "@/server/http/form.ts";
import { DnssecEnableForm } from "./dnssec_enable_form.tsx";

/** A key as the panel shows it: `state` appears with key rollover (published, active, retired…). */
type PanelKey = DnssecKey & { state?: string };

/**
 * The key actions of a signed zone, each a link to its confirmation page
 * under `/zones/{name}/dnssec/` (a route file built with `confirmRoute`).
 * A new action (rotating the ZSK: "Rotate ZSK…" to `dnssec/rotate`) is one
 * more entry here and one more confirmation page beside `dnssec/disable.tsx`.
 */
function keyActions(base: string): { href: string; label: string; danger?: boolean }[] {
  return [
    { href: `${base}/dnssec/rotate`, label: "Rotate ZSK…" },
    { href: `${base}/dnssec/disable`, label: "Disable DNSSEC…", danger: true },
  ];
}

export function DnssecPanel(
  { zone, status, canEdit, form }: {
    zone: string;
    status: DnssecStatus;
    canEdit: boolean;
    /** The enable form's state (values typed, errors of a refused enable). */
    form: FormState;
  },
) {
  const base = `/zones/${encodeURIComponent(zone)}`;
  return (
    <section aria-labelledby="dnssec" class="dnssec">
      <div class="row">
        <h2 id="dnssec">DNSSEC</h2>
        <span data-dnssec-state>
          {status.enabled
            ? <Badge status="ok" label="Signed" />
            : <Badge status="off" label="Unsigned" />}
        </span>
      </div>
      {status.enabled
        ? (
          <>
            <p class="muted">
              Answers carry signatures; validating resolvers check them once the parent zone
              publishes a DS record of the zone's key-signing key.
            </p>
            {status.rollover && (
              <p data-rollover>
                ZSK rollover under way: completes{" "}
                <time dateTime={status.rollover.completion_date}>
                  {formatTime(status.rollover.completion_date)}
                </time>. The keys table shows each key's state as it moves.
              </p>
            )}
            <KeysTable keys={status.keys} />
            <DsRecords zone={zone} status={status} />
            {canEdit && (
              <div class="actions" role="group" aria-label="DNSSEC actions">
                {keyActions(base).map((a) => (
                  <a
                    key={a.href}
                    class={a.danger ? "button-link danger" : "button-link"}
                    href={a.href}
                  >
                    {a.label}
                  </a>
                ))}
              </div>
            )}
          </>
        )
        : (
          <>
            <p class="muted">Answers carry no signatures.</p>
            {canEdit && <DnssecEnableForm form={form} kept={status.keys} />}
          </>
        )}
    </section>
  );
}

function KeysTable({ keys }: { keys: PanelKey[] }) {
  const withState = keys.some((k) => k.state !== undefined);
  const columns: (Column | false)[] = [
    { label: "Key" },
    { label: "Algorithm" },
    { label: "Bits", num: true },
    { label: "Key tag", num: true },
    withState && { label: "State" },
    { label: "Created" },
    { label: "Expires" },
  ];
  return (
    <Table class="dnssec-keys" label="DNSSEC keys" columns={columns}>
      {keys.map((k) => (
        <tr key={k.id} data-key-id={k.id}>
          <th scope="row">{k.key_type}</th>
          <td>{k.algorithm}</td>
          <td class="num">{k.bits}</td>
          <td class="num">{k.key_tag}</td>
          {withState && <td data-cell="state">{k.state ?? "—"}</td>}
          <td>{formatTime(k.created_at)}</td>
          <td>{k.expires_at ? formatTime(k.expires_at) : "not scheduled"}</td>
        </tr>
      ))}
    </Table>
  );
}

function DsRecords({ zone, status }: { zone: string; status: DnssecStatus }) {
  const lines = status.ds_records.map((ds) => dsPresentation(zone, ds)).join("\n");
  return (
    <>
      <h3 id="dnssec-ds">DS records for the registrar</h3>
      <pre id="dnssec-ds-lines" class="ds-lines" tabindex={0}>
        {lines}
      </pre>
      <div class="row">
        <CopyButton target="dnssec-ds-lines" label="Copy DS records" />
      </div>
      <p class="help">
        At the registrar (or the operator of the parent zone), add one of these lines as the zone's
        DS record: its key tag, algorithm, digest type and digest. Digest type 2 (SHA-256) is
        accepted everywhere. Until the parent publishes it, resolvers treat the zone as unsigned.
        Before disabling DNSSEC, remove the DS at the registrar and wait for its TTL to pass.
      </p>
    </>
  );
}

import { interfaceFailure, interfaceInput } from "@/components/interface_form.ts";
import type { ComponentChildren } from "preact";
import { z } from "zod";
import { Badge } from "@/components/badge.tsx";
import { ActionButton, Field, FormError } from "@/components/form_fields.tsx";
import { formatBytes, formatTime } from "@/components/format.ts";
import { Notice } from "@/components/notice.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { peerRows } from "@/components/peer_rows.ts";
import PeerTable, { type PeerTableProps } from "@/islands/PeerTable.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import {
  type InterfaceStatus,
  type InterfaceView,
  PROTECTED_INTERFACE,
} from "@/lib/tunnel/interface_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(200);
const DONE = {
  created: "Interface created.",
  updated: "Interface saved.",
  enabled: "Interface enabled.",
  disabled: "Interface disabled: its link is down, its peers are kept.",
  restarted: "Interface restarted from the stored state.",
} as const;

export const meta = define.meta({
  GET: {
    summary: "Interface page: status, peers, settings",
    access: "viewer",
    query: z.object({ done: z.enum(Object.keys(DONE) as [keyof typeof DONE]).optional() }),
  },
  POST: {
    summary: "Change an interface from the page's forms",
    access: "operator",
    body: z.discriminatedUnion("_action", [
      z.object({
        _action: z.literal("update"),
        name: Text,
        address_v4: Text,
        listen_port: Text,
        mtu: Text,
      }),
      z.object({ _action: z.enum(["enable", "disable", "restart"]) }),
    ]),
  },
});

interface Data {
  iface: InterfaceView;
  status: InterfaceStatus;
  table: Pick<PeerTableProps, "rows" | "ifaces">;
  now: number;
  canEdit: boolean;
  form: FormState;
  /** Error of enable/disable/restart, shown beside those buttons. */
  actionError: string | null;
  notice: string | null;
}

function valuesOf(i: InterfaceView): Record<string, string> {
  return {
    name: i.name,
    address_v4: i.address_v4,
    listen_port: i.listen_port === null ? "" : String(i.listen_port),
    mtu: String(i.mtu),
  };
}

async function load(
  ctx: SignedInContext,
  over: Partial<Data> = {},
): Promise<Data> {
  const { tunnels } = ctx.services;
  const id = ctx.params.id;
  const iface = tunnels.interfaces.get(id);
  ctx.state.title = iface.name;
  const [status, peers] = await Promise.all([
    tunnels.interfaces.status(id),
    tunnels.peers.list({ interface_id: id }),
  ]);
  return {
    iface,
    status,
    table: peerRows(peers),
    now: Date.now(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(valuesOf(iface)),
    actionError: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const done = ctx.query.done;
    return page(await load(ctx, { notice: done ? DONE[done] : null }));
  },
  async POST(ctx) {
    const { interfaces } = ctx.services.tunnels;
    const id = ctx.params.id;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "update") {
      const { _action, ...values } = body;
      try {
        await interfaces.update(id, interfaceInput(values), actor);
        return ctx.redirect(`/tunnels/${id}?done=updated`);
      } catch (err) {
        const { form, status } = interfaceFailure(err, values);
        return page(await load(ctx, { form }), { status });
      }
    }
    try {
      await interfaces[body._action](id, actor);
      const done = body._action === "enable"
        ? "enabled"
        : body._action === "disable"
        ? "disabled"
        : "restarted";
      return ctx.redirect(`/tunnels/${id}?done=${done}`);
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page(await load(ctx, { actionError: form.errors[""] }), { status });
    }
  },
});

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default function Tunnel({ data }: PageProps<Data>) {
  const { iface, status: s, form } = data;
  const isProtected = iface.name === PROTECTED_INTERFACE;
  return (
    <>
      <PageHeader title={iface.name} back={{ href: "/tunnels", label: "Tunnels" }}>
        <Badge status={iface.enabled ? "enabled" : "disabled"} />
      </PageHeader>
      <Notice message={data.notice} />
      <section aria-labelledby="state">
        <h2 id="state">State</h2>
        <dl class="facts card">
          <Fact label="Address">
            <code>{iface.address_v4}</code>
          </Fact>
          <Fact label="Listen port">{iface.listen_port ?? "—"}</Fact>
          <Fact label="MTU">{iface.mtu}</Fact>
          <Fact label="Link">
            <Badge status={s.link} />
            {!s.host_active && <span class="muted">&nbsp;host layer off</span>}
          </Fact>
          <Fact label="Peers">
            {s.peers.stored} stored, {s.peers.enabled} enabled
            {s.host_active && `, ${s.peers.on_host} on host, ${s.peers.connected} connected`}
          </Fact>
          <Fact label="Transfer">
            {s.host_active
              ? `${formatBytes(s.rx_bytes)} received, ${formatBytes(s.tx_bytes)} sent`
              : "—"}
          </Fact>
          <Fact label="Public key">
            <code class="key">{iface.public_key}</code>
          </Fact>
          <Fact label="Updated">{formatTime(iface.updated_at)}</Fact>
        </dl>
        {data.canEdit && (
          <div class="actions" aria-label="Interface actions" role="group">
            {iface.enabled
              ? (!isProtected && <ActionButton name="disable" label="Disable" />)
              : <ActionButton name="enable" label="Enable" />}
            <ActionButton name="restart" label="Restart" />
            {!isProtected && (
              <a class="button-link danger" href={`/tunnels/${iface.id}/delete`}>Delete…</a>
            )}
            {isProtected && (
              <p class="help">{PROTECTED_INTERFACE} is the protected default interface.</p>
            )}
            {data.actionError && <p class="form-error" role="alert">{data.actionError}</p>}
          </div>
        )}
      </section>
      <section aria-labelledby="peers">
        <div class="row spread">
          <h2 id="peers">Peers</h2>
          {data.canEdit && (
            <a class="button-link" href={`/peers/new?interface_id=${iface.id}`}>Add peer</a>
          )}
        </div>
        <PeerTable
          rows={data.table.rows}
          ifaces={data.table.ifaces}
          now={data.now}
          caption={`Peers of ${iface.name}, with live handshakes and transfer`}
          showInterface={false}
          totals
          empty={`${iface.name} has no peers yet.`}
        />
      </section>
      {data.canEdit && (
        <section aria-labelledby="edit">
          <h2 id="edit">Settings</h2>
          <form method="post" class="card form-grid" aria-labelledby="edit" novalidate>
            <input type="hidden" name="_action" value="update" />
            <FormError form={form} />
            <Field
              form={form}
              name="name"
              label="Name"
              required
              help={isProtected ? "wg0 cannot be renamed." : "Renaming restarts the device."}
            />
            <Field form={form} name="address_v4" label="Address" required />
            <Field form={form} name="listen_port" label="Listen port" inputMode="numeric" />
            <Field form={form} name="mtu" label="MTU" inputMode="numeric" />
            <div class="form-actions">
              <button type="submit" class="primary">Save</button>
            </div>
          </form>
        </section>
      )}
    </>
  );
}

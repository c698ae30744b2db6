import type { ComponentChildren } from "preact";
import { z } from "zod";
import { Badge } from "@/components/badge.tsx";
import { ActionButton, Check, Field, FormError, Select } from "@/components/form_fields.tsx";
import { formatTime } from "@/components/format.ts";
import { Notice } from "@/components/notice.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { peerRows } from "@/components/peer_rows.ts";
import PeerTable, { type PeerTableProps } from "@/islands/PeerTable.tsx";
import QrDialog from "@/islands/QrDialog.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { PeerWithTelemetry } from "@/lib/tunnel/peer_service.ts";
import type { RoutingProfile } from "@/lib/tunnel/validate.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import {
  emptyForm,
  formFailure,
  type FormState,
  formText,
  optionalInt,
  optionalText,
} from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(1000);
const DONE = {
  created: "Peer created. Its configuration is ready to download.",
  updated: "Peer saved.",
  enabled: "Peer enabled.",
  disabled: "Peer disabled: it is off the host until enabled again.",
  revoked: "Peer revoked: its keys are erased and it can never connect again.",
} as const;

export const meta = define.meta({
  GET: {
    summary: "Peer page: live state, configuration, settings",
    access: "viewer",
    query: z.object({ done: z.enum(Object.keys(DONE) as [keyof typeof DONE]).optional() }),
  },
  POST: {
    summary: "Change a peer from the page's forms",
    access: "operator",
    body: z.discriminatedUnion("_action", [
      z.object({
        _action: z.literal("update"),
        name: Text,
        profile: Text,
        address: Text,
        dns: Text,
        keepalive: Text,
        mtu: Text,
        allowed_ips: Text,
        preshared_key: z.literal("true").optional(),
      }),
      z.object({ _action: z.enum(["enable", "disable"]) }),
    ]),
  },
});

const FIELDS = ["name", "profile", "address", "dns", "keepalive", "mtu", "allowed_ips"] as const;

interface Data {
  peer: PeerWithTelemetry;
  table: Pick<PeerTableProps, "rows" | "ifaces">;
  now: number;
  canEdit: boolean;
  /** The server's public host is set: configurations can be rendered. */
  endpointReady: boolean;
  form: FormState;
  actionError: string | null;
  notice: string | null;
}

function valuesOf(p: PeerWithTelemetry): Record<string, string> {
  return {
    name: p.name,
    profile: p.profile,
    address: p.address,
    dns: p.dns,
    keepalive: p.keepalive === null ? "" : String(p.keepalive),
    mtu: p.mtu === null ? "" : String(p.mtu),
    allowed_ips: p.allowed_ips_custom ? p.allowed_ips : "",
    preshared_key: p.has_preshared_key ? "true" : "",
  };
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const { tunnels, settings } = ctx.services;
  const peer = await tunnels.peers.get(ctx.params.id);
  ctx.state.title = peer.name;
  const ep = settings.serverEndpoint();
  return {
    peer,
    table: peerRows([peer]),
    now: Date.now(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    endpointReady: ep.enabled && !!ep.host,
    form: emptyForm(valuesOf(peer)),
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
    const { peers } = ctx.services.tunnels;
    const id = ctx.params.id;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "update") {
      const { _action, ...rest } = body;
      const values: Record<string, string> = { ...rest, preshared_key: rest.preshared_key ?? "" };
      try {
        await peers.update(id, {
          name: rest.name.trim(),
          profile: rest.profile as RoutingProfile,
          address: rest.address.trim(),
          dns: rest.dns.trim(),
          keepalive: optionalInt(values, "keepalive") ?? null,
          mtu: optionalInt(values, "mtu") ?? null,
          allowed_ips: optionalText(values, "allowed_ips") ?? null,
          preshared_key: rest.preshared_key === "true",
        }, actor);
        return ctx.redirect(`/peers/${id}?done=updated`);
      } catch (err) {
        const { form, status } = formFailure(err, values, FIELDS);
        return page(await load(ctx, { form }), { status });
      }
    }
    try {
      await peers[body._action](id, actor);
      return ctx.redirect(`/peers/${id}?done=${body._action}d`);
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

function ConfigSection({ data }: { data: Data }) {
  const { peer } = data;
  let why: ComponentChildren = null;
  if (peer.status === "revoked") why = "A revoked peer has no configuration: its keys are erased.";
  else if (!peer.has_private_key) {
    why = "The client made its own keys, so only it holds the private key a configuration needs.";
  } else if (!data.canEdit) why = "Downloading a configuration needs the operator role.";
  else if (!data.endpointReady) {
    why = (
      <>
        Configurations need the server's public address: set the public host in{" "}
        <a href="/settings">Settings</a>.
      </>
    );
  }
  return (
    <section aria-labelledby="config">
      <h2 id="config">Client configuration</h2>
      {why ? <p class="muted">{why}</p> : (
        <div class="actions">
          <a class="button-link primary" href={`/peers/${peer.id}/config`}>
            Download configuration
          </a>
          <QrDialog href={`/peers/${peer.id}/qr`} name={peer.name} />
          <p class="help wide">
            Each download is recorded in the audit log: the file holds the peer's private key.
          </p>
        </div>
      )}
    </section>
  );
}

export default function Peer({ data }: PageProps<Data>) {
  const { peer, form } = data;
  const revoked = peer.status === "revoked";
  return (
    <>
      <PageHeader title={peer.name} back={{ href: "/peers", label: "Peers" }}>
        <Badge status={peer.status} />
      </PageHeader>
      <Notice message={data.notice} />
      <ConfigSection data={data} />
      <section aria-labelledby="live">
        <h2 id="live">Live state</h2>
        <PeerTable
          rows={data.table.rows}
          ifaces={data.table.ifaces}
          now={data.now}
          caption="Latest handshake and transfer"
          showInterface
          empty=""
        />
      </section>
      <section aria-labelledby="facts">
        <h2 id="facts">Details</h2>
        <dl class="facts card">
          <Fact label="Interface">
            <a href={`/tunnels/${peer.interface_id}`}>{peer.interface_name}</a>
          </Fact>
          <Fact label="Address">
            <code>{peer.address}</code>
          </Fact>
          <Fact label="Routing">{peer.profile}</Fact>
          <Fact label="Allowed IPs">
            <code>{peer.allowed_ips}</code>
          </Fact>
          <Fact label="DNS">{peer.dns || "—"}</Fact>
          <Fact label="Keepalive">{peer.keepalive ? `${peer.keepalive} s` : "off"}</Fact>
          <Fact label="MTU">{peer.mtu ?? "interface's"}</Fact>
          <Fact label="Preshared key">{peer.has_preshared_key ? "yes" : "no"}</Fact>
          <Fact label="Public key">
            <code class="key">{peer.public_key}</code>
          </Fact>
          <Fact label="Endpoint">{peer.telemetry?.endpoint ?? "—"}</Fact>
          <Fact label="Created">{formatTime(peer.created_at)}</Fact>
          <Fact label="Updated">{formatTime(peer.updated_at)}</Fact>
        </dl>
      </section>
      {data.canEdit && (
        <section aria-labelledby="manage">
          <h2 id="manage">Manage</h2>
          <div class="actions" role="group" aria-labelledby="manage">
            {!revoked && peer.status === "enabled" && (
              <ActionButton name="disable" label="Disable" />
            )}
            {!revoked && peer.status === "disabled" && (
              <ActionButton name="enable" label="Enable" />
            )}
            {!revoked && (
              <a class="button-link danger" href={`/peers/${peer.id}/revoke`}>Revoke…</a>
            )}
            <a class="button-link danger" href={`/peers/${peer.id}/delete`}>Delete…</a>
            {data.actionError && <p class="form-error" role="alert">{data.actionError}</p>}
          </div>
          {revoked
            ? <p class="help">A revoked peer cannot be changed; delete it to free its address.</p>
            : (
              <form method="post" class="card form-grid" aria-label="Peer settings" novalidate>
                <input type="hidden" name="_action" value="update" />
                <FormError form={form} />
                <Field form={form} name="name" label="Name" required />
                <Select
                  form={form}
                  name="profile"
                  label="Routing"
                  options={[
                    ["full-tunnel", "Full tunnel: all traffic"],
                    ["split-tunnel", "Split tunnel: the interface's block only"],
                  ]}
                />
                <Field form={form} name="address" label="Address" required />
                <Field form={form} name="dns" label="DNS servers" />
                <Field
                  form={form}
                  name="allowed_ips"
                  label="Allowed IPs"
                  placeholder={peer.allowed_ips_custom ? "" : peer.allowed_ips}
                  help="Empty: from the routing choice."
                />
                <Field form={form} name="keepalive" label="Keepalive (s)" inputMode="numeric" />
                <Field form={form} name="mtu" label="MTU" inputMode="numeric" />
                <Check
                  form={form}
                  name="preshared_key"
                  label="Use a preshared key"
                  checked={form.values.preshared_key === "true"}
                />
                <div class="form-actions">
                  <button type="submit" class="primary">Save</button>
                </div>
              </form>
            )}
        </section>
      )}
    </>
  );
}

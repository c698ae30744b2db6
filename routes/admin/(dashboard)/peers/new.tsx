import { z } from "zod";
import { Check, Field, FormError, Select } from "@/components/form_fields.tsx";
import { PageHeader } from "@/components/page_header.tsx";
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

export const meta = define.meta({
  GET: {
    summary: "New peer form",
    access: "operator",
    query: z.object({ interface_id: z.string().max(64).optional() }),
  },
  POST: {
    summary: "Create a peer from the form",
    access: "operator",
    body: z.object({
      interface_id: Text,
      name: Text,
      profile: Text,
      address: Text,
      dns: Text,
      keepalive: Text,
      mtu: Text,
      allowed_ips: Text,
      public_key: Text,
      preshared_key: z.literal("true").optional(),
      enabled: z.literal("true").optional(),
    }),
  },
});

const FIELDS = [
  "interface_id",
  "name",
  "profile",
  "address",
  "dns",
  "keepalive",
  "mtu",
  "allowed_ips",
  "public_key",
] as const;

const ADVANCED = ["allowed_ips", "keepalive", "mtu", "public_key"];

interface Data {
  interfaces: { id: string; name: string; address_v4: string }[];
  form: FormState;
}

function interfacesOf(ctx: SignedInContext) {
  return ctx.services.tunnels.interfaces.list().map((i) => ({
    id: i.id,
    name: i.name,
    address_v4: i.address_v4,
  }));
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "New peer";
    const interfaces = interfacesOf(ctx);
    return page<Data>({
      interfaces,
      form: emptyForm({
        interface_id: ctx.query.interface_id ?? interfaces[0]?.id ?? "",
        profile: "full-tunnel",
        preshared_key: "true",
        enabled: "true",
      }),
    });
  },
  async POST(ctx) {
    ctx.state.title = "New peer";
    const v = ctx.body;
    const values: Record<string, string> = {
      ...v,
      preshared_key: v.preshared_key ?? "",
      enabled: v.enabled ?? "",
    };
    try {
      const peer = await ctx.services.tunnels.peers.create(v.interface_id, {
        name: v.name.trim(),
        profile: (v.profile || "full-tunnel") as RoutingProfile,
        address: optionalText(values, "address"),
        dns: optionalText(values, "dns"),
        keepalive: optionalInt(values, "keepalive"),
        mtu: optionalInt(values, "mtu"),
        allowed_ips: optionalText(values, "allowed_ips"),
        public_key: optionalText(values, "public_key"),
        preshared_key: v.preshared_key === "true",
        enabled: v.enabled === "true",
      }, ctx.auth.user.username);
      return ctx.redirect(`/peers/${peer.id}?done=created`);
    } catch (err) {
      const { form, status } = formFailure(err, values, FIELDS);
      // An unknown interface id names no field in its message.
      if (form.errors[""]?.startsWith("Interface ")) {
        form.errors = { interface_id: form.errors[""] };
      }
      return page<Data>({ interfaces: interfacesOf(ctx), form }, { status });
    }
  },
});

export default function NewPeer({ data }: PageProps<Data>) {
  const { form } = data;
  if (data.interfaces.length === 0) {
    return (
      <>
        <PageHeader title="New peer" back={{ href: "/peers", label: "Peers" }} />
        <p class="empty">
          A peer belongs to an interface. <a href="/tunnels#new-interface">Create an interface</a>
          {" "}
          first.
        </p>
      </>
    );
  }
  return (
    <>
      <PageHeader title="New peer" back={{ href: "/peers", label: "Peers" }} />
      <form method="post" class="card form-grid" aria-label="New peer" novalidate>
        <FormError form={form} />
        <Select
          form={form}
          name="interface_id"
          label="Interface"
          options={data.interfaces.map((i) => [i.id, `${i.name} (${i.address_v4})`])}
        />
        <Field
          form={form}
          name="name"
          label="Name"
          required
          placeholder="alice-laptop"
          help="Up to 64 ASCII letters, digits, spaces and ._@+-; it names the config file."
        />
        <Select
          form={form}
          name="profile"
          label="Routing"
          options={[
            ["full-tunnel", "Full tunnel: all traffic"],
            ["split-tunnel", "Split tunnel: the interface's block only"],
          ]}
        />
        <Field
          form={form}
          name="address"
          label="Address"
          placeholder="allocated"
          help="A free host address of the interface's block; the lowest free one when empty."
        />
        <Field
          form={form}
          name="dns"
          label="DNS servers"
          placeholder="10.8.0.1, 1.1.1.1"
          help="Written into the client's configuration."
        />
        <details
          class="wide"
          open={ADVANCED.some((f) => form.errors[f] || form.values[f]) || undefined}
        >
          <summary>Advanced</summary>
          <div class="form-grid nested">
            <Field
              form={form}
              name="allowed_ips"
              label="Allowed IPs"
              placeholder="from the routing choice"
              help="Client-side AllowedIPs, comma-separated CIDRs."
            />
            <Field
              form={form}
              name="keepalive"
              label="Keepalive (s)"
              inputMode="numeric"
              help="0–65535; 0 or empty is off."
            />
            <Field
              form={form}
              name="mtu"
              label="MTU"
              inputMode="numeric"
              help="1280–9000; the interface's when empty."
            />
            <Field
              form={form}
              name="public_key"
              label="Client public key"
              help="Only when the client made its own keys: no configuration can then be downloaded."
            />
            <Check
              form={form}
              name="preshared_key"
              label="Generate a preshared key"
              checked={form.values.preshared_key === "true"}
            />
          </div>
        </details>
        <Check
          form={form}
          name="enabled"
          label="Enable now"
          checked={form.values.enabled === "true"}
        />
        <div class="form-actions">
          <button type="submit" class="primary">Create peer</button>
          <a href="/peers" class="button-link">Cancel</a>
        </div>
      </form>
    </>
  );
}

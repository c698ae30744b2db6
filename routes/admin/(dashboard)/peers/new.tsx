import { z } from "zod";
import { Page } from "@/components/page.tsx";
import { anyLimit, limitsInputOf } from "@/components/peers/limits_fields.tsx";
import {
  type InterfaceChoice,
  NewPeerBody,
  newPeerFailure,
  NewPeerForm,
  newPeerInput,
} from "@/components/peers/new_peer_form.tsx";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "New peer form",
    access: "operator",
    query: z.object({ interface_id: z.string().max(64).optional() }),
  },
  POST: {
    summary: "Create a peer from the form",
    access: "operator",
    body: NewPeerBody,
  },
});

interface Data {
  interfaces: InterfaceChoice[];
  form: FormState;
}

async function interfacesOf(ctx: SignedInContext): Promise<InterfaceChoice[]> {
  return (await ctx.services.tunnels.interfaces.list()).map((i) => ({
    id: i.id,
    name: i.name,
    address_v4: i.address_v4,
  }));
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "New peer";
    const interfaces = await interfacesOf(ctx);
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
    const values = { ...v, preshared_key: v.preshared_key ?? "", enabled: v.enabled ?? "" };
    try {
      // Checked before the peer is made, so a refused limit creates nothing.
      const limits = anyLimit(values) ? limitsInputOf(values) : null;
      const { tunnels } = ctx.services;
      const peer = await tunnels.peers.create(
        v.interface_id,
        newPeerInput(values),
        ctx.auth.user.username,
      );
      if (limits) await tunnels.limits.set(peer.id, limits, ctx.auth.user.username);
      return ctx.redirect(`/peers/${peer.id}?done=created`);
    } catch (err) {
      const { form, status } = newPeerFailure(err, values);
      return page<Data>({ interfaces: await interfacesOf(ctx), form }, { status });
    }
  },
});

export default function NewPeer({ data }: PageProps<Data>) {
  return (
    <Page title="New peer" back={{ href: "/peers", label: "Peers" }}>
      {data.interfaces.length === 0
        ? (
          <p class="empty">
            A peer belongs to an interface. <a href="/tunnels#new-interface">Create an interface</a>
            {" "}
            first.
          </p>
        )
        : <NewPeerForm interfaces={data.interfaces} form={data.form} />}
    </Page>
  );
}

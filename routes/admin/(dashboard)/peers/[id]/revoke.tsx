import { ConfirmPage } from "@/components/confirm_page.tsx";
import type { PeerView } from "@/lib/tunnel/peer_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { formFailure } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm revoking a peer", access: "operator" },
  POST: { summary: "Revoke a peer (final)", access: "operator" },
});

interface Data {
  peer: PeerView;
  error?: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Revoke peer";
    return page<Data>({ peer: ctx.services.tunnels.peers.view(ctx.params.id) });
  },
  async POST(ctx) {
    ctx.state.title = "Revoke peer";
    const { peers } = ctx.services.tunnels;
    const peer = peers.view(ctx.params.id);
    try {
      await peers.revoke(peer.id, ctx.auth.user.username);
      return ctx.redirect(`/peers/${peer.id}?done=revoked`);
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page<Data>({ peer, error: form.errors[""] }, { status });
    }
  },
});

export default function RevokePeer({ data }: PageProps<Data>) {
  const { peer } = data;
  return (
    <ConfirmPage
      title="Revoke peer"
      question={
        <>
          Revoke peer <strong>{peer.name}</strong> ({peer.address} on {peer.interface_name})?
        </>
      }
      consequence="Revoking is final: the peer leaves the host, its keys are erased, and it can never be enabled or downloaded again. Its address stays reserved until you delete it."
      confirmLabel={`Revoke ${peer.name}`}
      cancelHref={`/peers/${peer.id}`}
      error={data.error}
    />
  );
}

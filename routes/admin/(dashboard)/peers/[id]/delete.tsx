import { ConfirmPage } from "@/components/confirm_page.tsx";
import type { PeerView } from "@/lib/tunnel/peer_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { formFailure } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm deleting a peer", access: "operator" },
  POST: { summary: "Delete a peer", access: "operator" },
});

interface Data {
  peer: PeerView;
  error?: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Delete peer";
    return page<Data>({ peer: ctx.services.tunnels.peers.view(ctx.params.id) });
  },
  async POST(ctx) {
    ctx.state.title = "Delete peer";
    const { peers } = ctx.services.tunnels;
    const peer = peers.view(ctx.params.id);
    try {
      await peers.delete(peer.id, ctx.auth.user.username);
      return ctx.redirect("/peers?done=deleted");
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page<Data>({ peer, error: form.errors[""] }, { status });
    }
  },
});

export default function DeletePeer({ data }: PageProps<Data>) {
  const { peer } = data;
  return (
    <ConfirmPage
      title="Delete peer"
      question={
        <>
          Delete peer <strong>{peer.name}</strong> ({peer.address} on {peer.interface_name})?
        </>
      }
      consequence="It leaves the host at once, its address and key become free, and its record is gone. The audit log keeps what happened."
      confirmLabel={`Delete ${peer.name}`}
      cancelHref={`/peers/${peer.id}`}
      error={data.error}
    />
  );
}

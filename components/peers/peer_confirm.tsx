import type { ConfirmSpec } from "@/components/confirm_page.tsx";
import type { PeerView } from "@/lib/tunnel/peer_service.ts";

/** The confirmation of revoking or deleting a peer: the same question about the same peer. */
export function peerConfirm(
  { verb, summary, act, consequence }: Pick<ConfirmSpec<PeerView>, "summary" | "act"> & {
    verb: "Revoke" | "Delete";
    consequence: string;
  },
): ConfirmSpec<PeerView> {
  return {
    title: `${verb} peer`,
    summary,
    load: (ctx) => ctx.services.tunnels.peers.view(ctx.params.id),
    act,
    text: (peer) => ({
      question: (
        <>
          {verb} peer <strong>{peer.name}</strong> ({peer.address} on {peer.interface_name})?
        </>
      ),
      consequence,
      confirmLabel: `${verb} ${peer.name}`,
      cancelHref: `/peers/${peer.id}`,
    }),
  };
}

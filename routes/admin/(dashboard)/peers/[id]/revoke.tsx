import { confirmRoute } from "@/components/confirm_page.tsx";
import { peerConfirm } from "@/components/peers/peer_confirm.tsx";

const route = confirmRoute(peerConfirm({
  verb: "Revoke",
  summary: { GET: "Confirm revoking a peer", POST: "Revoke a peer (final)" },
  act: async (ctx, peer) => {
    await ctx.services.tunnels.peers.revoke(peer.id, ctx.auth.user.username);
    return `/peers/${peer.id}?done=revoked`;
  },
  consequence:
    "Revoking is final: the peer leaves the host, its keys are erased, and it can never be enabled or downloaded again. Its address stays reserved until you delete it.",
}));

export const { meta, handler } = route;
export default route.Confirm;

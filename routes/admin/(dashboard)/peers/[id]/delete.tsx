import { confirmRoute } from "@/components/confirm_page.tsx";
import { peerConfirm } from "@/components/peers/peer_confirm.tsx";

const route = confirmRoute(peerConfirm({
  verb: "Delete",
  summary: { GET: "Confirm deleting a peer", POST: "Delete a peer" },
  act: async (ctx, peer) => {
    await ctx.services.tunnels.peers.delete(peer.id, ctx.auth.user.username);
    return "/peers?done=deleted";
  },
  consequence:
    "It leaves the host at once, its address and key become free, and its record is gone. The audit log keeps what happened.",
}));

export const { meta, handler } = route;
export default route.Confirm;

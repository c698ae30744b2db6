import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete network",
  summary: { GET: "Confirm deleting a network", POST: "Delete a network no interface uses" },
  load: (ctx) => ctx.services.tunnels.networks.get(ctx.params.id),
  act: async (ctx, n) => {
    await ctx.services.tunnels.networks.delete(n.id, ctx.auth.user.username);
    return "/networks?done=deleted";
  },
  text: (n) => ({
    question: (
      <>
        Delete network <strong>{n.name}</strong> ({n.cidr})?
      </>
    ),
    consequence: n.interface_id === null
      ? "Its block becomes free for another network or interface. Nothing changes on the host."
      : `It is the subnet of interface "${n.interface_name}" and cannot be deleted while that interface uses it.`,
    confirmLabel: `Delete ${n.name}`,
    cancelHref: `/networks/${n.id}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete interface",
  summary: { GET: "Confirm deleting an interface", POST: "Delete an interface and its peers" },
  load: (ctx) => ctx.services.tunnels.interfaces.get(ctx.params.id),
  act: async (ctx, iface) => {
    await ctx.services.tunnels.interfaces.delete(iface.id, ctx.auth.user.username);
    return "/tunnels?done=deleted";
  },
  text: (iface) => ({
    question: (
      <>
        Delete interface <strong>{iface.name}</strong> ({iface.address_v4}) and its{" "}
        {iface.peer_count} {iface.peer_count === 1 ? "peer" : "peers"}?
      </>
    ),
    consequence:
      "The device goes down at once and every client on it loses its tunnel. This cannot be undone.",
    confirmLabel: `Delete ${iface.name}`,
    cancelHref: `/tunnels/${iface.id}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

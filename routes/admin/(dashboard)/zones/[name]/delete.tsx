import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete zone",
  summary: { GET: "Confirm deleting a zone", POST: "Delete a zone and its records" },
  load: (ctx) => ctx.services.dns.getZone(ctx.params.name),
  act: async (ctx, zone) => {
    await ctx.services.dns.deleteZone(ctx.auth.user.username, zone.name);
    return "/zones?done=deleted";
  },
  text: (zone) => ({
    question: (
      <>
        Delete zone <strong>{zone.name}</strong> and its {zone.records_count} records?
      </>
    ),
    consequence:
      "The server stops answering for it at once. Export the zone file first to keep a copy; this cannot be undone.",
    confirmLabel: `Delete ${zone.name}`,
    cancelHref: `/zones/${encodeURIComponent(zone.name)}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

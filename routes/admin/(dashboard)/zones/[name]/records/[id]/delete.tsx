import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete record",
  summary: { GET: "Confirm deleting a record", POST: "Delete a record" },
  load: async (ctx) => {
    const { dns } = ctx.services;
    const zone = (await dns.getZone(ctx.params.name)).name;
    return { zone, record: await dns.getRecord(zone, ctx.params.id) };
  },
  act: async (ctx, { zone, record }) => {
    await ctx.services.dns.deleteRecord(ctx.auth.user.username, zone, record.id);
    return `/zones/${encodeURIComponent(zone)}?done=record_deleted`;
  },
  text: ({ zone, record }) => ({
    question: (
      <>
        Delete the {record.type} record <strong>{record.domain}</strong> →{" "}
        <code>{record.value}</code>?
      </>
    ),
    consequence: "Resolvers may keep answering with it until its TTL runs out.",
    confirmLabel: "Delete record",
    cancelHref: `/zones/${encodeURIComponent(zone)}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

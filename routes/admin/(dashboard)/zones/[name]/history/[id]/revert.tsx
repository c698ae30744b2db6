import { confirmRoute } from "@/components/confirm_page.tsx";
import { RRsetDiff } from "@/components/zones/history_list.tsx";

const route = confirmRoute({
  title: "Revert change",
  summary: { GET: "Confirm reverting a change of a zone", POST: "Revert a change of a zone" },
  load: async (ctx) => {
    const { dns } = ctx.services;
    const zone = (await dns.getZone(ctx.params.name)).name;
    return { zone, change: await dns.getHistoryChange(zone, Number(ctx.params.id)) };
  },
  act: async (ctx, { zone, change }) => {
    await ctx.services.dns.revertChange(ctx.auth.user.username, zone, change.id);
    return `/zones/${encodeURIComponent(zone)}/history?done=reverted`;
  },
  text: ({ zone, change }) => ({
    question: (
      <>
        Revert change {change.id} of <strong>{zone}</strong> ({change.summary}, by {change.actor})?
      </>
    ),
    consequence:
      "The records it touched go back to what they were before it, as a new change; resolvers may keep the current answers until their TTL runs out.",
    details: <RRsetDiff changes={change.changes} />,
    confirmLabel: "Revert change",
    cancelHref: `/zones/${encodeURIComponent(zone)}/history`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

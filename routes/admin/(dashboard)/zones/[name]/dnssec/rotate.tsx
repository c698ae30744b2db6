import { confirmRoute } from "@/components/confirm_page.tsx";
import { formatTime } from "@/components/format.ts";

const route = confirmRoute({
  title: "Rotate ZSK",
  summary: {
    GET: "Confirm starting a ZSK rollover on a zone",
    POST: "Start a ZSK pre-publish rollover (RFC 7583); it advances by itself",
  },
  load: async (ctx) => {
    const zone = (await ctx.services.dns.getZone(ctx.params.name)).name;
    return { zone, status: await ctx.services.dns.dnssecStatus(zone) };
  },
  act: async (ctx, { zone }) => {
    await ctx.services.dns.rotateDnssec(ctx.auth.user.username, zone);
    return `/zones/${encodeURIComponent(zone)}?done=dnssec_rotated`;
  },
  text: ({ zone, status }) => ({
    question: (
      <>
        Replace the zone-signing key of <strong>{zone}</strong>?
      </>
    ),
    consequence: status.rollover
      ? (
        <>
          A rollover is already under way; it completes{" "}
          {formatTime(status.rollover.completion_date)}. A new one can start after that.
        </>
      )
      : (
        <>
          A new ZSK is published now and starts signing once the DNSKEY TTL and the propagation
          delay have passed; the old one stops signing then and leaves the DNSKEY set after the
          zone's longest TTL and the delay. Answers stay valid throughout, and nothing changes at
          the registrar: the DS points at the key-signing key, which stays. The keys table shows
          each step and the completion date.
        </>
      ),
    confirmLabel: `Rotate the ZSK of ${zone}`,
    cancelHref: `/zones/${encodeURIComponent(zone)}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

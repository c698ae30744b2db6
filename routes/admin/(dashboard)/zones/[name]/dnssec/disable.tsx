import { confirmRoute } from "@/components/confirm_page.tsx";
import { dsPresentation } from "@/lib/dns/dnssec/ds.ts";

const route = confirmRoute({
  title: "Disable DNSSEC",
  summary: {
    GET: "Confirm disabling DNSSEC on a zone",
    POST: "Disable DNSSEC on a zone (keys kept)",
  },
  load: async (ctx) => {
    const zone = (await ctx.services.dns.getZone(ctx.params.name)).name;
    return { zone, status: await ctx.services.dns.dnssecStatus(zone) };
  },
  act: async (ctx, { zone }) => {
    await ctx.services.dns.setDnssec(ctx.auth.user.username, zone, { enable: false });
    return `/zones/${encodeURIComponent(zone)}?done=dnssec_disabled`;
  },
  text: ({ zone, status }) => ({
    question: (
      <>
        Disable DNSSEC on <strong>{zone}</strong>?
      </>
    ),
    consequence: (
      <>
        Remove the zone's DS records at the registrar first, and wait for their TTL to pass: while
        the parent still publishes a DS, validating resolvers treat the unsigned zone as bogus and
        its names stop resolving for their users. The keys are kept, so enabling again with the same
        algorithm makes the current DS valid again.
        {status.ds_records.length > 0 && (
          <>
            {" "}The DS records to remove:
            {status.ds_records.map((d) => (
              <code key={`${d.key_tag} ${d.digest_type}`} class="ds-line">
                {dsPresentation(zone, d)}
              </code>
            ))}
          </>
        )}
      </>
    ),
    confirmLabel: `Disable DNSSEC on ${zone}`,
    cancelHref: `/zones/${encodeURIComponent(zone)}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;

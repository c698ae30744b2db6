/**
 * Rotating a site's secret: GET asks, POST rotates and shows the new secret
 * on its answer only (so not confirmRoute, which redirects after acting).
 */
import { SiteSecret } from "@/components/attest_sites/sites_table.tsx";
import { ConfirmPage } from "@/components/confirm_page.tsx";
import { Page } from "@/components/page.tsx";
import type { SiteView, SiteWithSecret } from "@/lib/attest/sites/site_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm rotating a site's secret", access: "administrator" },
  POST: {
    summary: "Rotate a site's secret and show the new one once",
    access: "administrator",
  },
});

type Data = { site: SiteView; rotated: null } | { site: SiteView; rotated: SiteWithSecret };

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Rotate secret";
    return page<Data>({ site: await ctx.services.attestSites.get(ctx.params.id), rotated: null });
  },
  async POST(ctx) {
    ctx.state.title = "Secret rotated";
    const rotated = await ctx.services.attestSites.rotateSecret(
      ctx.params.id,
      ctx.auth.user.username,
    );
    return page<Data>({ site: rotated, rotated });
  },
});

export default function Rotate({ data }: PageProps<Data>) {
  const s = data.site;
  const back = `/attestation/sites/${encodeURIComponent(s.id)}`;
  if (data.rotated) {
    return (
      <Page title="Secret rotated" back={{ href: back, label: "Back" }}>
        <SiteSecret name={s.name} secret={data.rotated.secret} what="has a new secret" />
      </Page>
    );
  }
  return (
    <ConfirmPage
      title="Rotate secret"
      question={
        <>
          Give site <strong>{s.name}</strong> a new secret?
        </>
      }
      consequence="The current secret stops working at once: update your server's configuration with the new one, shown once on the next page."
      confirmLabel="Rotate secret"
      cancelHref={back}
    />
  );
}

import { z } from "zod";
import {
  SiteBody,
  siteFailure,
  SiteForm,
  siteInput,
} from "@/components/attest_sites/site_form.tsx";
import {
  SiteSecret,
  SitesTable,
  type SiteWithFigures,
} from "@/components/attest_sites/sites_table.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { SiteWithSecret } from "@/lib/attest/sites/site_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Attestation sites page: registered sites with their figures since start",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.sites) }),
  },
  POST: { summary: "Register a site from the form", access: "administrator", body: SiteBody },
});

interface Data {
  sites: SiteWithFigures[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
  created: SiteWithSecret | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Attestation sites";
  return {
    sites: await ctx.services.attestSites.listWithFigures(),
    canEdit: roleAtLeast(ctx.auth.user.role, "administrator"),
    form: emptyForm(),
    notice: null,
    created: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.sites, ctx.query.done) }));
  },
  async POST(ctx) {
    try {
      const created = await ctx.services.attestSites.create(
        siteInput(ctx.body),
        ctx.auth.user.username,
      );
      // Not a redirect: the secret is on this answer only.
      return page(await load(ctx, { created }));
    } catch (err) {
      const { form, status } = siteFailure(err, ctx.body);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Sites({ data }: PageProps<Data>) {
  return (
    <Page
      title="Attestation sites"
      notice={data.notice}
      back={{ href: "/attestation", label: "Attestation" }}
    >
      <p class="muted">
        A site embeds the attestation script with its key (<code>data-site-key</code>); sessions
        from its pages count here. Figures start at zero when the server starts; a site's page shows
        them over time, with its latest sessions' signals.
      </p>
      {data.created && (
        <SiteSecret name={data.created.name} secret={data.created.secret} what="registered" />
      )}
      <div class="row spread">
        <h2 id="sites-heading">Sites</h2>
        <LiveRegion
          region="sites-table"
          on={[{ type: "AttestSiteStats" }, { type: "SiteChanged" }]}
        />
      </div>
      <div id="sites-table">
        <SitesTable sites={data.sites} />
      </div>
      {data.canEdit && <SiteForm form={data.form} heading="New site" label="Register site" />}
    </Page>
  );
}

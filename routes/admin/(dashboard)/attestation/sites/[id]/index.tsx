import { z } from "zod";
import {
  SiteBody,
  siteFailure,
  SiteForm,
  siteInput,
  siteValues,
} from "@/components/attest_sites/site_form.tsx";
import { Fact, Facts } from "@/components/fact.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import { SiteOverTime, SiteSessions, SiteTotals } from "@/components/attest_sites/site_figures.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import type { RecentSession } from "@/lib/attest/signals/signals.ts";
import type { SiteHistoryView } from "@/lib/attest/sites/site_history.ts";
import type { SiteFiguresAll, SiteView } from "@/lib/attest/sites/site_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import type { FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "One attestation site: its key, origins and rules, figures since start and over time, latest sessions' signals; the edit form for administrators",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.site) }),
  },
  POST: { summary: "Save a site from the form", access: "administrator", body: SiteBody },
});

/** Sessions listed on the page; the flag counts cover the last FLAG_WINDOW. */
const SHOWN = 50;
const FLAG_WINDOW = 1000;

interface Data {
  site: SiteView & { figures: SiteFiguresAll };
  history: SiteHistoryView;
  sessions: RecentSession[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  const { attestSites } = ctx.services;
  const site = await attestSites.getWithFigures(ctx.params.id);
  ctx.state.title = `Site ${site.name}`;
  return {
    site,
    history: attestSites.history.view(site.id, site.figures),
    sessions: await attestSites.recentSessions(site.id, FLAG_WINDOW),
    canEdit: roleAtLeast(ctx.auth.user.role, "administrator"),
    form: { values: siteValues(site), errors: {} },
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.site, ctx.query.done) }));
  },
  async POST(ctx) {
    try {
      const input = siteInput(ctx.body);
      await ctx.services.attestSites.update(ctx.params.id, input, ctx.auth.user.username);
      return ctx.redirect(`/attestation/sites/${ctx.params.id}?done=updated`);
    } catch (err) {
      const { form, status } = siteFailure(err, ctx.body);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Site({ data }: PageProps<Data>) {
  const s = data.site;
  const id = encodeURIComponent(s.id);
  return (
    <Page
      title={`Site ${s.name}`}
      notice={data.notice}
      back={{ href: "/attestation/sites", label: "Sites" }}
      actions={data.canEdit && (
        <>
          <a class="button-link" href={`/attestation/sites/${id}/rotate`}>Rotate secret</a>
          <a class="button-link" href={`/attestation/sites/${id}/delete`}>Delete</a>
        </>
      )}
    >
      <Facts>
        <Fact label="Site key">
          <code>{s.site_key}</code>
        </Fact>
        <Fact label="Origins">{s.origins.join(", ")}</Fact>
        <Fact label="Minimum chain">{s.min_chain}</Fact>
        <Fact label="Token lifetime">{s.token_ttl_s} s</Fact>
      </Facts>
      <div class="row spread">
        <span />
        <LiveRegion
          region="site-figures"
          on={[{ type: "AttestSiteStats" }, { type: "SiteChanged", where: { id: s.id } }]}
        />
      </div>
      <div id="site-figures" class="stack">
        <SiteTotals f={s.figures} />
        <SiteOverTime h={data.history} />
        <SiteSessions sessions={data.sessions} shown={SHOWN} />
      </div>
      {data.canEdit && <SiteForm form={data.form} heading="Edit site" label="Save site" />}
    </Page>
  );
}

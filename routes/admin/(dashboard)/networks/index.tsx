import { z } from "zod";
import {
  NetworkBody,
  networkFailure,
  networkInput,
  NewNetworkForm,
} from "@/components/networks/network_form.tsx";
import { NetworksTable } from "@/components/networks/networks_table.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { NetworkView } from "@/lib/tunnel/networks/network_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Networks page: address blocks and their utilization",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.networks) }),
  },
  POST: {
    summary: "Create a network from the form",
    access: "operator",
    body: NetworkBody,
  },
});

interface Data {
  networks: NetworkView[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Networks";
  return {
    networks: await ctx.services.tunnels.networks.list(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.networks, ctx.query.done) }));
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      const created = await ctx.services.tunnels.networks.create(
        networkInput(values),
        ctx.auth.user.username,
      );
      return ctx.redirect(`/networks/${created.id}?done=created`);
    } catch (err) {
      const { form, status } = networkFailure(err, values);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Networks({ data }: PageProps<Data>) {
  return (
    <Page title="Networks" notice={data.notice}>
      <NetworksTable networks={data.networks} />
      {data.canEdit && <NewNetworkForm form={data.form} />}
    </Page>
  );
}

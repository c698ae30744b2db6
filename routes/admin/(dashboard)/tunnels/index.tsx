import { z } from "zod";
import { noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import {
  InterfaceBody,
  interfaceFailure,
  interfaceInput,
  NewInterfaceForm,
} from "@/components/tunnels/interface_form.tsx";
import { InterfacesTable } from "@/components/tunnels/interfaces_table.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { InterfaceView } from "@/lib/tunnel/interface_service.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Tunnels page: interfaces",
    access: "viewer",
    query: z.object({ done: z.literal("deleted").optional() }),
  },
  POST: {
    summary: "Create an interface from the form",
    access: "operator",
    body: InterfaceBody,
  },
});

interface Data {
  interfaces: InterfaceView[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Tunnels";
  return {
    interfaces: await ctx.services.tunnels.interfaces.list(),
    canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
    form: emptyForm(),
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(
      await load(ctx, { notice: noticeFor(NOTICES.tunnels, ctx.query.done) }),
    );
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      const created = await ctx.services.tunnels.interfaces.create(
        interfaceInput(values),
        ctx.auth.user.username,
      );
      return ctx.redirect(`/tunnels/${created.id}?done=created`);
    } catch (err) {
      const { form, status } = interfaceFailure(err, values);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Tunnels({ data }: PageProps<Data>) {
  return (
    <Page
      title="Tunnels"
      notice={data.notice}
      actions={data.canEdit && <a href="/tunnels/import" class="button-link">Import upstream…</a>}
    >
      <InterfacesTable interfaces={data.interfaces} canEdit={data.canEdit} />
      {data.canEdit && <NewInterfaceForm form={data.form} />}
    </Page>
  );
}

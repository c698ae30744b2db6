import {
  ConsoleBody,
  consoleFailure,
  ConsoleForm,
  consoleRequest,
} from "@/components/console/console_form.tsx";
import { ConsoleResultView } from "@/components/console/console_result.tsx";
import { Page } from "@/components/page.tsx";
import type { ConsoleResult } from "@/lib/console/schema.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Console page: run one read-only command of the allowlist",
    access: "operator",
  },
  POST: {
    summary: "Run the chosen console command (as POST /cli/execute) and show its output",
    access: "operator",
    body: ConsoleBody,
  },
});

interface Data {
  form: FormState;
  result: ConsoleResult | null;
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  ctx.state.title = "Console";
  return { form: emptyForm({ command: "system version" }), result: null, ...over };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    return page(load(ctx));
  },
  async POST(ctx) {
    const values = ctx.body as Record<string, string>;
    try {
      // The output is the answer to this POST (nothing to redirect to: a run changes nothing).
      const result = await ctx.services.cli.execute(ctx.auth.user.username, consoleRequest(values));
      return page(load(ctx, { form: emptyForm(values), result }));
    } catch (err) {
      const { form, status } = consoleFailure(err, values);
      return page(load(ctx, { form }), { status });
    }
  },
});

export default function Console({ data }: PageProps<Data>) {
  return (
    <Page title="Console">
      <p class="muted">
        Read-only commands from the console's allowlist, as <code>POST /api/v1/cli/execute</code>
        {" "}
        runs them: secrets in the output are masked and every run is audited.
      </p>
      <ConsoleForm form={data.form} />
      {data.result && <ConsoleResultView result={data.result} />}
    </Page>
  );
}

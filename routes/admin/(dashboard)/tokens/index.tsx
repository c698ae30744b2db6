import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { zodRefusal } from "@/components/refusal.ts";
import {
  NewTokenForm,
  NewTokenSecret,
  TokenBody,
  TokensTable,
} from "@/components/tokens/tokens_table.tsx";
import { TokenCreateInput } from "@/lib/auth/schema.ts";
import type { TokenMeta } from "@/lib/auth/tokens.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, optionalInt } from "@/server/http/form.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const FIELDS = Object.keys(TokenBody.shape);

export const meta = define.meta({
  GET: {
    summary: "API tokens page: the signed-in user's tokens",
    access: "viewer",
    query: z.object({ done: doneQuery(NOTICES.tokens) }),
  },
  POST: {
    summary: "Create an API token from the form; its raw value is only on this answer",
    access: "viewer",
    body: TokenBody,
  },
});

interface Data {
  tokens: TokenMeta[];
  form: FormState;
  created: { name: string; raw: string } | null;
  notice: string | null;
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  ctx.state.title = "API tokens";
  return {
    tokens: ctx.services.auth.tokens.list(ctx.auth.user),
    form: emptyForm({ expires_in_days: "90" }),
    created: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    return page(load(ctx, { notice: noticeFor(NOTICES.tokens, ctx.query.done) }));
  },
  POST(ctx) {
    // As in the API: a leaked token must not mint a longer-lived one.
    requireSession(ctx, "Creating an API token");
    const values = ctx.body;
    try {
      const parsed = TokenCreateInput.safeParse({
        name: values.name,
        expires_in_days: optionalInt(values, "expires_in_days"),
      });
      if (!parsed.success) {
        const { form, status } = zodRefusal(parsed.error, values);
        return page(load(ctx, { form }), { status });
      }
      const { raw_token, meta } = ctx.services.auth.tokens.create(
        ctx.auth.user,
        parsed.data.name,
        parsed.data.expires_in_days,
      );
      // Answered, not redirected: the raw token exists only in this response.
      return page(load(ctx, { created: { name: meta.name, raw: raw_token } }));
    } catch (err) {
      const { form, status } = formFailure(err, values, FIELDS);
      return page(load(ctx, { form }), { status });
    }
  },
});

export default function Tokens({ data }: PageProps<Data>) {
  return (
    <Page title="API tokens" notice={data.notice}>
      {data.created && <NewTokenSecret name={data.created.name} raw={data.created.raw} />}
      <TokensTable tokens={data.tokens} />
      <NewTokenForm form={data.form} />
    </Page>
  );
}

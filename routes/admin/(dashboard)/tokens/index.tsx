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
import { roleAtLeast } from "@/lib/auth/roles.ts";
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
    summary:
      "API tokens page: the signed-in user's tokens; every user's with ?all=true for administrators",
    access: "viewer",
    // As GET /auth/tokens: `all` is ignored for anyone but an administrator.
    query: z.object({ done: doneQuery(NOTICES.tokens), all: z.enum(["true", "false"]).optional() }),
  },
  POST: {
    summary: "Create an API token from the form; its raw value is only on this answer",
    access: "viewer",
    body: TokenBody,
  },
});

interface Data {
  tokens: TokenMeta[];
  /** Every user's tokens are listed (an administrator asked for them). */
  all: boolean;
  /** The caller may switch to every user's tokens. */
  canSeeAll: boolean;
  form: FormState;
  created: { name: string; raw: string } | null;
  notice: string | null;
}

async function load(
  ctx: SignedInContext,
  over: Partial<Data> = {},
  askAll = false,
): Promise<Data> {
  const canSeeAll = roleAtLeast(ctx.auth.user.role, "administrator");
  const all = askAll && canSeeAll;
  ctx.state.title = all ? "All users' API tokens" : "API tokens";
  return {
    tokens: await ctx.services.auth.tokens.list(ctx.auth.user, all),
    all,
    canSeeAll,
    form: emptyForm({ expires_in_days: "90" }),
    created: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const notice = noticeFor(NOTICES.tokens, ctx.query.done);
    return page(await load(ctx, { notice }, ctx.query.all === "true"));
  },
  async POST(ctx) {
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
        return page(await load(ctx, { form }), { status });
      }
      const { raw_token, meta } = await ctx.services.auth.tokens.create(
        ctx.auth.user,
        parsed.data.name,
        parsed.data.expires_in_days,
      );
      // Answered, not redirected: the raw token exists only in this response.
      return page(await load(ctx, { created: { name: meta.name, raw: raw_token } }));
    } catch (err) {
      const { form, status } = formFailure(err, values, FIELDS);
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function Tokens({ data }: PageProps<Data>) {
  const title = data.all ? "All users' API tokens" : "API tokens";
  const other = data.all
    ? <a href="/tokens">My tokens</a>
    : <a href="/tokens?all=true">All users' tokens</a>;
  return (
    <Page title={title} notice={data.notice} actions={data.canSeeAll ? other : undefined}>
      {data.created && <NewTokenSecret name={data.created.name} raw={data.created.raw} />}
      <TokensTable tokens={data.tokens} withOwner={data.all} />
      <NewTokenForm form={data.form} />
    </Page>
  );
}

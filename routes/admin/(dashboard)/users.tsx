import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { pageRefusal, zodRefusal } from "@/components/refusal.ts";
import { NewUserBody, NewUserForm } from "@/components/users/new_user_form.tsx";
import { type RoleError, UsersTable } from "@/components/users/users_table.tsx";
import { NewUserInput } from "@/lib/auth/schema.ts";
import { ROLES } from "@/lib/auth/roles.ts";
import type { UserInfo } from "@/lib/auth/user.ts";
import type { SecondFactors } from "@/lib/auth/two_factor_admin.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(1024);
export const meta = define.meta({
  GET: {
    summary: "Users page",
    access: "administrator",
    query: z.object({ done: doneQuery(NOTICES.users) }),
  },
  POST: {
    summary: "Create a user or change a role from the page's forms",
    access: "administrator",
    body: z.discriminatedUnion("_action", [
      z.object({ _action: z.literal("create"), ...NewUserBody.shape }),
      z.object({ _action: z.literal("role"), user_id: Text, role: z.enum(ROLES) }),
    ]),
  },
});

interface Data {
  users: UserInfo[];
  factors: Record<string, SecondFactors>;
  me: string;
  create: FormState;
  roleError: RoleError | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "Users";
  const users = await ctx.services.users.list();
  return {
    users,
    factors: await ctx.services.auth.twoFactorAdmin.ofEach(users.map((u) => u.id)),
    me: ctx.auth.user.id,
    create: emptyForm({ role: "viewer" }),
    roleError: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.users, ctx.query.done) }));
  },
  async POST(ctx) {
    const { users } = ctx.services;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "role") {
      try {
        await users.setRole(body.user_id, body.role, actor);
        return ctx.redirect("/users?done=role");
      } catch (err) {
        const { error, status } = pageRefusal(err);
        return page(await load(ctx, { roleError: { id: body.user_id, message: error } }), {
          status,
        });
      }
    }
    const { _action, ...values } = body;
    // Passwords are never sent back into the page.
    const kept = { ...values, password: "" };
    const parsed = NewUserInput.safeParse(values);
    if (!parsed.success) {
      const { form, status } = zodRefusal(parsed.error, kept);
      return page(await load(ctx, { create: form }), { status });
    }
    try {
      await users.create(parsed.data, actor);
      return ctx.redirect("/users?done=created");
    } catch (err) {
      const { form, status } = formFailure(err, kept, ["username"], { fallback: "username" });
      return page(await load(ctx, { create: form }), { status });
    }
  },
});

export default function Users({ data }: PageProps<Data>) {
  return (
    <Page title="Users" notice={data.notice}>
      <p class="muted" id="users-scope">
        These accounts are the same for the dashboard, the tunnel API and the DNS API: the DNS API's
        users (<code>GET</code> and <code>POST /users</code>) are this list.
      </p>
      <UsersTable
        users={data.users}
        me={data.me}
        roleError={data.roleError}
        factors={data.factors}
      />
      <NewUserForm form={data.create} />
    </Page>
  );
}

import { z } from "zod";
import { Field, FormError, Select } from "@/components/form_fields.tsx";
import { formatTime } from "@/components/format.ts";
import { Notice } from "@/components/notice.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { NewUserInput } from "@/lib/auth/schema.ts";
import { ROLES } from "@/lib/auth/roles.ts";
import type { UserInfo } from "@/lib/auth/user.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import {
  emptyForm,
  formFailure,
  type FormState,
  formText,
  zodFailure,
} from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

const Text = formText(1024);

export const meta = define.meta({
  GET: {
    summary: "Users page",
    access: "administrator",
    query: z.object({ done: z.enum(["created", "role"]).optional() }),
  },
  POST: {
    summary: "Create a user or change a role from the page's forms",
    access: "administrator",
    body: z.discriminatedUnion("_action", [
      z.object({
        _action: z.literal("create"),
        username: Text,
        email: Text,
        password: Text,
        role: Text,
      }),
      z.object({ _action: z.literal("role"), user_id: Text, role: z.enum(ROLES) }),
    ]),
  },
});

const ROLE_OPTIONS: [string, string][] = [
  ["viewer", "viewer: reads everything"],
  ["operator", "operator: changes tunnels, peers, zones"],
  ["administrator", "administrator: also settings and users"],
];

interface Data {
  users: UserInfo[];
  me: string;
  create: FormState;
  /** A refused role change, shown in that user's row. */
  roleError: { id: string; message: string } | null;
  notice: string | null;
}

function load(ctx: SignedInContext, over: Partial<Data> = {}): Data {
  ctx.state.title = "Users";
  return {
    users: ctx.services.users.list(),
    me: ctx.auth.user.id,
    create: emptyForm({ role: "viewer" }),
    roleError: null,
    notice: null,
    ...over,
  };
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    const done = ctx.query.done;
    const notice = done === "created"
      ? "User created."
      : done === "role"
      ? "Role changed. It applies to the user's sessions and API tokens at once."
      : null;
    return page(load(ctx, { notice }));
  },
  async POST(ctx) {
    const { users } = ctx.services;
    const actor = ctx.auth.user.username;
    const body = ctx.body;
    if (body._action === "role") {
      try {
        users.setRole(body.user_id, body.role, actor);
        return ctx.redirect("/users?done=role");
      } catch (err) {
        const { form, status } = formFailure(err, {}, []);
        return page(load(ctx, { roleError: { id: body.user_id, message: form.errors[""] } }), {
          status,
        });
      }
    }
    const { _action, ...values } = body;
    const parsed = NewUserInput.safeParse(values);
    if (!parsed.success) {
      return page(load(ctx, { create: zodFailure(parsed.error, { ...values, password: "" }) }), {
        status: 400,
      });
    }
    try {
      await users.create(parsed.data, actor);
      return ctx.redirect("/users?done=created");
    } catch (err) {
      const { form, status } = formFailure(err, { ...values, password: "" }, ["username"], {
        fallback: "username",
      });
      return page(load(ctx, { create: form }), { status });
    }
  },
});

export default function Users({ data }: PageProps<Data>) {
  const { create } = data;
  return (
    <>
      <PageHeader title="Users" />
      <Notice message={data.notice} />
      <section aria-labelledby="people">
        <h2 id="people">Accounts</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">E-mail</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((u) => {
                const err = data.roleError?.id === u.id ? data.roleError.message : null;
                const id = `role-${u.id}`;
                return (
                  <tr>
                    <th scope="row">
                      {u.username}
                      {u.id === data.me && <span class="muted">&nbsp;(you)</span>}
                    </th>
                    <td>{u.email || <span class="muted">—</span>}</td>
                    <td>{u.last_login ? formatTime(u.last_login) : "never"}</td>
                    <td>
                      <form method="post" class="row nowrap" aria-label={`Role of ${u.username}`}>
                        <input type="hidden" name="_action" value="role" />
                        <input type="hidden" name="user_id" value={u.id} />
                        <label for={id} class="visually-hidden">Role of {u.username}</label>
                        <select
                          id={id}
                          name="role"
                          class="compact"
                          aria-invalid={err ? "true" : undefined}
                          aria-describedby={err ? `${id}-error` : undefined}
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r} selected={r === u.role}>{r}</option>
                          ))}
                        </select>
                        <button type="submit">
                          Change<span class="visually-hidden">{` role of ${u.username}`}</span>
                        </button>
                      </form>
                      {err && <p id={`${id}-error`} class="field-error" role="alert">{err}</p>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="new-user">
        <h2 id="new-user">New user</h2>
        <form method="post" class="card form-grid" aria-labelledby="new-user" novalidate>
          <input type="hidden" name="_action" value="create" />
          <FormError form={create} />
          <Field
            form={create}
            name="username"
            label="Username"
            required
            autocomplete="off"
            help="1–64 letters, digits or . _ @ -"
          />
          <Field form={create} name="email" label="E-mail" type="email" />
          <Field
            form={create}
            name="password"
            label="Password"
            type="password"
            required
            autocomplete="new-password"
            help="At least 12 characters; the user can change it later."
          />
          <Select form={create} name="role" label="Role" options={ROLE_OPTIONS} />
          <div class="form-actions">
            <button type="submit" class="primary">Create user</button>
          </div>
        </form>
      </section>
    </>
  );
}

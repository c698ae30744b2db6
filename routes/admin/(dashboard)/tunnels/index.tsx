import { interfaceFailure, interfaceInput } from "@/components/interface_form.ts";
import { z } from "zod";
import { Badge } from "@/components/badge.tsx";
import { Field, FormError } from "@/components/form_fields.tsx";
import { Notice } from "@/components/notice.tsx";
import { PageHeader } from "@/components/page_header.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { InterfaceView } from "@/lib/tunnel/interface_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { emptyForm, type FormState, formText } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

const Text = formText(200);

export const meta = define.meta({
  GET: {
    summary: "Tunnels page: interfaces",
    access: "viewer",
    query: z.object({ done: z.literal("deleted").optional() }),
  },
  POST: {
    summary: "Create an interface from the form",
    access: "operator",
    body: z.object({ name: Text, address_v4: Text, listen_port: Text, mtu: Text }),
  },
});

interface Data {
  interfaces: InterfaceView[];
  canEdit: boolean;
  form: FormState;
  notice: string | null;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Tunnels";
    return page<Data>({
      interfaces: ctx.services.tunnels.interfaces.list(),
      canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
      form: emptyForm(),
      // A fixed message: nothing from the query string is shown.
      notice: ctx.query.done ? "Interface deleted." : null,
    });
  },
  async POST(ctx) {
    ctx.state.title = "Tunnels";
    const { tunnels } = ctx.services;
    const values = ctx.body;
    try {
      const created = await tunnels.interfaces.create(
        interfaceInput(values),
        ctx.auth.user.username,
      );
      return ctx.redirect(`/tunnels/${created.id}?done=created`);
    } catch (err) {
      const { form, status } = interfaceFailure(err, values);
      return page<Data>({
        interfaces: tunnels.interfaces.list(),
        canEdit: true,
        form,
        notice: null,
      }, { status });
    }
  },
});

export default function Tunnels({ data }: PageProps<Data>) {
  const { interfaces, form } = data;
  return (
    <>
      <PageHeader title="Tunnels" />
      <Notice message={data.notice} />
      <section aria-labelledby="interfaces">
        <h2 id="interfaces">Interfaces</h2>
        {interfaces.length === 0
          ? (
            <p class="empty">
              No WireGuard interface yet.{" "}
              {data.canEdit ? "Create the first one below." : "An operator can create one."}
            </p>
          )
          : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Address</th>
                    <th scope="col" class="num">Port</th>
                    <th scope="col" class="num">MTU</th>
                    <th scope="col" class="num">Peers</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {interfaces.map((i) => (
                    <tr>
                      <th scope="row">
                        <a href={`/tunnels/${i.id}`}>{i.name}</a>
                      </th>
                      <td>
                        <code>{i.address_v4}</code>
                      </td>
                      <td class="num">{i.listen_port ?? "—"}</td>
                      <td class="num">{i.mtu}</td>
                      <td class="num">
                        <a href={`/peers?interface_id=${i.id}`}>{i.peer_count}</a>
                      </td>
                      <td>
                        <Badge status={i.enabled ? "enabled" : "disabled"} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>
      {data.canEdit && (
        <section aria-labelledby="new-interface">
          <h2 id="new-interface">New interface</h2>
          <form method="post" class="card form-grid" aria-labelledby="new-interface" novalidate>
            <FormError form={form} />
            <Field
              form={form}
              name="name"
              label="Name"
              required
              placeholder="wg1"
              help="1 to 15 of a–z, 0–9, _ and -."
            />
            <Field
              form={form}
              name="address_v4"
              label="Address"
              required
              placeholder="10.8.0.1/24"
              help="The interface's address with prefix; the block is the peers' pool."
            />
            <Field
              form={form}
              name="listen_port"
              label="Listen port"
              inputMode="numeric"
              placeholder="51820"
              help="Lowest free port from 51820 when empty."
            />
            <Field
              form={form}
              name="mtu"
              label="MTU"
              inputMode="numeric"
              placeholder="1420"
              help="1280–9000; 1420 when empty."
            />
            <div class="form-actions">
              <button type="submit" class="primary">Create interface</button>
            </div>
          </form>
        </section>
      )}
    </>
  );
}

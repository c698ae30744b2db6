import { ConfirmPage } from "@/components/confirm_page.tsx";
import type { InterfaceView } from "@/lib/tunnel/interface_service.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { formFailure } from "@/server/http/form.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "Confirm deleting an interface", access: "operator" },
  POST: { summary: "Delete an interface and its peers", access: "operator" },
});

interface Data {
  iface: InterfaceView;
  error?: string;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Delete interface";
    return page<Data>({ iface: ctx.services.tunnels.interfaces.get(ctx.params.id) });
  },
  async POST(ctx) {
    ctx.state.title = "Delete interface";
    const { interfaces } = ctx.services.tunnels;
    const iface = interfaces.get(ctx.params.id);
    try {
      await interfaces.delete(iface.id, ctx.auth.user.username);
      return ctx.redirect("/tunnels?done=deleted");
    } catch (err) {
      const { form, status } = formFailure(err, {}, []);
      return page<Data>({ iface, error: form.errors[""] }, { status });
    }
  },
});

export default function DeleteInterface({ data }: PageProps<Data>) {
  const { iface } = data;
  return (
    <ConfirmPage
      title="Delete interface"
      question={
        <>
          Delete interface <strong>{iface.name}</strong> ({iface.address_v4}) and its{" "}
          {iface.peer_count} {iface.peer_count === 1 ? "peer" : "peers"}?
        </>
      }
      consequence="The device goes down at once and every client on it loses its tunnel. This cannot be undone."
      confirmLabel={`Delete ${iface.name}`}
      cancelHref={`/tunnels/${iface.id}`}
      error={data.error}
    />
  );
}

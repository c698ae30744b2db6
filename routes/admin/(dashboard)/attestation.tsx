import AttestLive, { type AttestFigures } from "@/islands/AttestLive.tsx";
import { Page } from "@/components/page.tsx";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Attestation page: sessions, chains, accepted and rejected rates",
    access: "viewer",
  },
});

interface Data {
  figures: AttestFigures;
  listener: string | undefined;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Attestation";
    const { attestRates, system } = ctx.services;
    return page<Data>({ figures: attestRates.snapshot(), listener: system.listeners.attest });
  },
});

export default function Attestation({ data }: PageProps<Data>) {
  return (
    <Page title="Attestation">
      <p class="muted">
        Browser attestation{data.listener ? ` on ${data.listener}` : ""}: sessions created by{" "}
        <code>/init</code>, chains extended by accepted <code>/hb</code>{" "}
        heartbeats. Counters start at zero when the server starts; rates cover the last measuring
        window.
      </p>
      <AttestLive initial={data.figures} />
      <p>
        <a href="/attestation/sites">Sites</a>: the websites that embed the script with a site key,
        with their sessions and heartbeats counted one by one.
      </p>
    </Page>
  );
}

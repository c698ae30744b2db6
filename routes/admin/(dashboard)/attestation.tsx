import AttestLive, { type AttestFigures } from "@/islands/AttestLive.tsx";
import { Page } from "@/components/page.tsx";
import { defineHandlers, defineMeta, page, type PageProps } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Attestation page: sessions, chains, accepted and rejected rates",
    access: "viewer",
  },
});

interface Data {
  figures: AttestFigures;
  listener: string | undefined;
}

export const handler = defineHandlers(meta, {
  GET(ctx) {
    ctx.state.title = "Attestation";
    const { attestRates, system } = ctx.state.services;
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
    </Page>
  );
}

/**
 * Entry of the embeddable script static/build/palisade-attest.js (an IIFE:
 * it leaks no globals besides `window.PalisadeAttest`). One tag embeds it:
 *
 *   <script src="https://attest.example/palisade-attest.js" async></script>
 *
 * It starts attestation at once unless the tag says `data-autostart="false"`;
 * `data-endpoint` overrides the listener's URL; `data-site-key` names the
 * site (docs/attestation_sites.md). See docs/attestation.md,
 * "Embedding the browser client".
 */
import { createPalisadeAttest, type PalisadeAttest } from "./palisade_attest.ts";
import { scriptEndpoint } from "./script_endpoint.ts";

declare global {
  var PalisadeAttest: PalisadeAttest | undefined;
}

/** Fired on `document` once `window.PalisadeAttest` exists (async scripts run at any time). */
const READY_EVENT = "palisade-attest:ready";

// currentScript is only set while a classic script first runs, so read it now.
const tag = document.currentScript instanceof HTMLScriptElement
  ? document.currentScript
  : document.querySelector<HTMLScriptElement>('script[src*="palisade-attest.js"]');

// A page that includes the tag twice keeps the first client: two would double every heartbeat.
if (!globalThis.PalisadeAttest) {
  const api = createPalisadeAttest({
    endpoint: scriptEndpoint(tag, location.href) ?? location.origin,
    siteKey: tag?.dataset.siteKey ?? null,
  });
  globalThis.PalisadeAttest = api;
  document.dispatchEvent(new CustomEvent(READY_EVENT, { detail: api }));
  if (tag?.dataset.autostart !== "false") api.start();
}

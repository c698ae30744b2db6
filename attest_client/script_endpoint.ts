/**
 * Where the embeddable script finds the attestation listener: the tag's
 * `data-endpoint` when given, otherwise the folder the script was loaded from
 * (`https://attest.example/palisade-attest.js` → `https://attest.example`).
 * The folder rather than the origin, so a listener published under a path
 * prefix by a reverse proxy (`https://example.org/attest/palisade-attest.js`)
 * works without configuration.
 */

/** The tag's attributes that matter here. */
export interface ScriptTag {
  src: string;
  dataset: { endpoint?: string };
}

/** The listener's base URL for a script tag, resolved against `pageUrl`; null when unknown. */
export function scriptEndpoint(tag: ScriptTag | null, pageUrl: string): string | null {
  const explicit = tag?.dataset.endpoint?.trim();
  if (explicit) return new URL(explicit, pageUrl).href.replace(/\/+$/, "");
  if (!tag?.src) return null;
  return new URL(".", new URL(tag.src, pageUrl)).href.replace(/\/+$/, "");
}

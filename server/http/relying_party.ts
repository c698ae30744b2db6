/**
 * The WebAuthn relying party of a dashboard request: the configured RP ID
 * and origin (PALISADE_WEBAUTHN_RP_ID, PALISADE_WEBAUTHN_ORIGIN), else the
 * origin the browser reached — the Host header with the listener's scheme or
 * a TLS-terminating proxy's X-Forwarded-Proto (same_origin.ts) — and its
 * host name. The browser checks the RP ID against the page's own origin, so
 * a forged Host header cannot make a passkey of another site answer.
 *
 * A configured RP ID may be a parent domain, whose passkeys a page on any
 * sibling subdomain may ask for; then only the origin check stops that page,
 * and a relay forges Host at will. So without a configured origin the Host
 * counts only when its host name is the RP ID itself.
 */
import type { RelyingParty } from "@/lib/auth/passkey/passkeys.ts";
import type { WebauthnSettings } from "@/lib/config/webauthn_options.ts";
import { requestScheme } from "./same_origin.ts";

export function relyingParty(settings: WebauthnSettings, req: Request): RelyingParty {
  const host = req.headers.get("host") ?? new URL(req.url).host;
  const reached = `${requestScheme(req)}//${host}`;
  const id = settings.rpId || new URL(reached).hostname;
  const hostIsId = new URL(reached).hostname === id;
  const origin = settings.origin || (hostIsId ? reached : `${requestScheme(req)}//${id}`);
  return { id, origin };
}

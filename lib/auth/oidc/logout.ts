/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0; docs/sso.md,
 * "Signing out"): a single sign-on user who signs out is sent on to the
 * provider's `end_session_endpoint` with `id_token_hint`,
 * `post_logout_redirect_uri` and `client_id`, when the provider has that
 * endpoint and its `logout_at_provider` setting is on.
 *
 * The ID token the hint needs is kept in a cookie sealed under the pending
 * sign-in key (another context), bound to the session it was issued with:
 * never in the store, so no listing, backup, copy or log holds it. A token too
 * large for a cookie is left out and the logout sends `client_id` alone.
 */
import { UnavailableError } from "../../errors.ts";
import type { Discovery } from "./discovery.ts";
import type { OidcRepo } from "./oidc_repo.ts";
import type { SealedBox } from "../sealed_box.ts";

export const LOGOUT_COOKIE = "palisade_sso_logout";
/** A cookie, its name and attributes must stay under the 4096 bytes browsers keep. */
export const MAX_LOGOUT_COOKIE = 3600;

const CONTEXT = "oidc-logout";

interface LogoutTicket {
  /** The session this sign-in issued; the ticket is worthless with another. */
  session: string;
  provider: string;
  idToken?: string;
}

export class OidcLogout {
  constructor(
    private readonly repo: OidcRepo,
    private readonly discovery: Discovery,
    private readonly box: SealedBox,
  ) {}

  /** The sealed cookie value for a session signed in through `provider`. */
  async ticket(session: string, provider: string, idToken: string): Promise<string> {
    const sealed = await this.box.seal(CONTEXT, JSON.stringify({ session, provider, idToken }));
    if (sealed.length <= MAX_LOGOUT_COOKIE) return sealed;
    return this.box.seal(CONTEXT, JSON.stringify({ session, provider }));
  }

  /**
   * Where the sign-out of `session` goes on to: the provider's end-session
   * URL, or null to stay local (no ticket for this session, the provider
   * gone, disabled, set to local sign-out, unreachable, or without the
   * endpoint). Signing out never fails because of the provider.
   */
  async target(
    cookie: string | undefined,
    session: string | undefined,
    loginUri: string,
  ): Promise<string | null> {
    const plain = cookie && session ? await this.box.unseal(CONTEXT, cookie) : null;
    if (!plain) return null;
    const t = JSON.parse(plain) as LogoutTicket;
    if (t.session !== session) return null;
    const p = await this.repo.provider(t.provider);
    if (!p || !p.enabled || !p.logoutAtProvider) return null;
    let endpoint: string | undefined;
    try {
      endpoint = (await this.discovery.get(p.issuer)).end_session_endpoint;
    } catch (err) {
      if (err instanceof UnavailableError) return null;
      throw err;
    }
    if (typeof endpoint !== "string" || !URL.canParse(endpoint)) return null;
    const url = new URL(endpoint);
    // The hint is a token: over plain http only to a plain-http (loopback, testing) issuer.
    if (url.protocol !== "https:" && url.protocol !== new URL(p.issuer).protocol) return null;
    if (t.idToken) url.searchParams.set("id_token_hint", t.idToken);
    url.searchParams.set("post_logout_redirect_uri", loginUri);
    url.searchParams.set("client_id", p.clientId);
    return url.href;
  }
}

/**
 * A provider's OpenID configuration (`/.well-known/openid-configuration`),
 * fetched with a bounded timeout and kept for a while, and its signing keys
 * through jose's remote key set (which caches and refetches on an unknown
 * key id by itself).
 */
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import type { Clock } from "../../clock.ts";
import { UnavailableError } from "../../errors.ts";

export interface OpenIdConfiguration {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  /** RP-initiated logout (logout.ts), when the provider offers it. */
  end_session_endpoint?: string;
}

/** How long a configuration is kept, and how long one fetch may take. */
export const DISCOVERY_TTL_MS = 10 * 60_000;
export const OIDC_TIMEOUT_MS = 5_000;

const unreachable = (issuer: string) =>
  new UnavailableError(`The identity provider "${issuer}" could not be reached`, 30);

export class Discovery {
  readonly #docs = new Map<string, { at: number; doc: OpenIdConfiguration }>();
  readonly #keys = new Map<string, JWTVerifyGetKey>();

  constructor(private readonly clock: Clock) {}

  /** The configuration of `issuer`; UnavailableError when it cannot be fetched or does not match. */
  async get(issuer: string): Promise<OpenIdConfiguration> {
    const hit = this.#docs.get(issuer);
    if (hit && this.clock.now() - hit.at < DISCOVERY_TTL_MS) return hit.doc;
    let doc: OpenIdConfiguration;
    try {
      const res = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(OIDC_TIMEOUT_MS),
        headers: { accept: "application/json" },
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw unreachable(issuer);
      }
      doc = await res.json();
    } catch (err) {
      if (err instanceof UnavailableError) throw err;
      throw unreachable(issuer);
    }
    // The document must speak for the configured issuer (OpenID Connect Discovery 1.0, 4.3).
    const ok = doc.issuer === issuer &&
      [doc.authorization_endpoint, doc.token_endpoint, doc.jwks_uri]
        .every((u) => typeof u === "string" && URL.canParse(u));
    if (!ok) {
      throw new UnavailableError(
        `The identity provider "${issuer}" sent an unusable configuration`,
        30,
      );
    }
    this.#docs.set(issuer, { at: this.clock.now(), doc });
    return doc;
  }

  /** The signing keys behind `jwksUri`. */
  keys(jwksUri: string): JWTVerifyGetKey {
    let set = this.#keys.get(jwksUri);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: OIDC_TIMEOUT_MS });
      this.#keys.set(jwksUri, set);
    }
    return set;
  }
}

/**
 * The callback's exchange with the provider: the authorization code (with
 * the PKCE verifier) for tokens at the token endpoint, the ID token verified
 * with jose (signature against the provider's keys, issuer, audience = our
 * client id, expiry, then the nonce of this sign-in), and the user info
 * claims when the role claim is not in the ID token.
 */
import { type JWTPayload, jwtVerify } from "jose";
import type { Clock } from "../../clock.ts";
import { UnauthorizedError, UnavailableError } from "../../errors.ts";
import { type Discovery, OIDC_TIMEOUT_MS, type OpenIdConfiguration } from "./discovery.ts";

/** What the callback needs of a provider, with its client secret opened. */
export interface ProviderClient {
  id: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A refused sign-in: the page shows the message. */
export const refused = (message: string) => new UnauthorizedError(message, { code: "sso_refused" });

/** Tolerated clock difference with the provider. */
const SKEW_S = 60;

interface TokenAnswer {
  id_token?: string;
  access_token?: string;
}

/** The code for tokens (RFC 6749, 4.1.3; client_secret_basic; RFC 7636 verifier). */
export async function exchangeCode(
  doc: OpenIdConfiguration,
  p: ProviderClient,
  code: string,
  verifier: string,
  redirectUri: string,
): Promise<{ idToken: string; accessToken?: string }> {
  const basic = btoa(`${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret)}`);
  let res: Response;
  try {
    res = await fetch(doc.token_endpoint, {
      method: "POST",
      signal: AbortSignal.timeout(OIDC_TIMEOUT_MS),
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
  } catch {
    throw new UnavailableError(`The identity provider "${p.issuer}" could not be reached`, 30);
  }
  const body = await res.json().catch(() => ({})) as TokenAnswer;
  if (!res.ok || typeof body.id_token !== "string") {
    throw refused("The identity provider did not accept the sign-in; try again");
  }
  return { idToken: body.id_token, accessToken: body.access_token };
}

/** The verified claims of `idToken`; refused when anything does not hold. */
export async function verifyIdToken(
  discovery: Discovery,
  doc: OpenIdConfiguration,
  p: ProviderClient,
  idToken: string,
  nonce: string,
  clock: Clock,
): Promise<JWTPayload & { sub: string }> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, discovery.keys(doc.jwks_uri), {
      issuer: p.issuer,
      audience: p.clientId,
      clockTolerance: SKEW_S,
      currentDate: new Date(clock.now()),
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch {
    throw refused("The identity provider's ID token did not verify");
  }
  // With several audiences the token must have been issued to us (OpenID Connect Core 3.1.3.7).
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== p.clientId) {
    throw refused("The identity provider's ID token was issued to another client");
  }
  if (payload.nonce !== nonce) throw refused("The ID token does not belong to this sign-in");
  return payload as JWTPayload & { sub: string };
}

/** The user info claims (OpenID Connect Core 5.3); only those of the same subject count. */
export async function userInfo(
  doc: OpenIdConfiguration,
  accessToken: string,
  sub: string,
): Promise<Record<string, unknown>> {
  if (!doc.userinfo_endpoint) return {};
  try {
    const res = await fetch(doc.userinfo_endpoint, {
      signal: AbortSignal.timeout(OIDC_TIMEOUT_MS),
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    });
    if (!res.ok) {
      await res.body?.cancel();
      return {};
    }
    const claims = await res.json() as Record<string, unknown>;
    return claims.sub === sub ? claims : {};
  } catch {
    return {};
  }
}

/**
 * A minimal OpenID provider the refusal tests control: discovery, a key set,
 * and a token endpoint that answers the ID token the test mints (wrong
 * audience, wrong nonce, a group that maps to nothing). It records the PKCE
 * verifier each code exchange sent, so a test can check it against the
 * challenge of the authorization request. A code the test registered in
 * `claimsByCode` answers its own claims, so two sign-ins can run at once;
 * `endSession` false leaves `end_session_endpoint` out of the discovery
 * document.
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

export interface FakeIdp extends AsyncDisposable {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the next token request answers: the claims of its ID token (iss, iat, exp added). */
  idTokenClaims: JWTPayload;
  /** Claims for a given authorization code; other codes get `idTokenClaims`. */
  claimsByCode: Map<string, JWTPayload>;
  /** The form of each token request, in order. */
  tokenRequests: URLSearchParams[];
  /** Each ID token issued, in order. */
  idTokens: string[];
  /** Whether discovery names `end_session_endpoint` (`<issuer>/logout`); true by default. */
  endSession: boolean;
}

export async function startFakeIdp(): Promise<FakeIdp> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const idp = {
    issuer: "",
    clientId: "palisade",
    clientSecret: "fake-secret",
    idTokenClaims: {} as JWTPayload,
    claimsByCode: new Map<string, JWTPayload>(),
    tokenRequests: [] as URLSearchParams[],
    idTokens: [] as string[],
    endSession: true,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/.well-known/openid-configuration") {
      return Response.json({
        issuer: idp.issuer,
        authorization_endpoint: `${idp.issuer}/authorize`,
        token_endpoint: `${idp.issuer}/token`,
        jwks_uri: `${idp.issuer}/jwks`,
        ...(idp.endSession ? { end_session_endpoint: `${idp.issuer}/logout` } : {}),
      });
    }
    if (path === "/jwks") return Response.json({ keys: [jwk] });
    if (path === "/token" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      idp.tokenRequests.push(form);
      const claims = idp.claimsByCode.get(form.get("code") ?? "") ?? idp.idTokenClaims;
      const idToken = await new SignJWT({ iss: idp.issuer, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      idp.idTokens.push(idToken);
      return Response.json({ id_token: idToken, access_token: "at", token_type: "Bearer" });
    }
    return new Response("not found", { status: 404 });
  });
  idp.issuer = `http://127.0.0.1:${server.addr.port}`;
  return Object.assign(idp, { [Symbol.asyncDispose]: () => server.shutdown() });
}

/**
 * A real OpenID provider for the single sign-on tests: `oidc-provider` (a
 * certified implementation) on 127.0.0.1 on a port the OS picks, with one
 * confidential client and its built-in login and consent pages
 * (devInteractions), which take any login name. Every account's claims
 * include `groups` (netops by default), given through the user info
 * endpoint as the provider does by default.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestIdp extends AsyncDisposable {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export async function startTestIdp(opts: {
  redirectUri: string;
  groups?: string[];
}): Promise<TestIdp> {
  const server = http.createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "palisade";
  const clientSecret = "a-client-secret-of-the-test-provider";
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [opts.redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    }],
    claims: {
      openid: ["sub"],
      email: ["email"],
      profile: ["preferred_username"],
      groups: ["groups"],
    },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({
        sub,
        preferred_username: sub,
        email: `${sub}@idp.example`,
        groups: opts.groups ?? ["netops"],
      }),
    }),
    features: { devInteractions: { enabled: true } },
    // Set, so the provider does not print a notice for each default.
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/**
 * A provider and one user signed in through it, made through the services
 * against tests/helpers/fake_idp.ts: rows in `oidc_providers` and
 * `oidc_identities` for the tests that need every table populated.
 */
import { startFakeIdp } from "./fake_idp.ts";
import type { TestServer } from "./test_server.ts";

export async function seedSso(t: TestServer): Promise<void> {
  await using idp = await startFakeIdp();
  const { providers, signIn } = t.services.sso;
  await providers.create("admin", {
    id: "fake",
    display_name: "Fake IdP",
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    scopes: "openid",
    claim: "groups",
    role_map: "netops=viewer",
    enabled: true,
  });
  const back = `${t.admin}/sso/callback`;
  const started = await signIn.begin("fake", "/", back);
  const sent = new URL(started.location).searchParams;
  idp.idTokenClaims = {
    sub: "seeded",
    aud: idp.clientId,
    nonce: sent.get("nonce")!,
    groups: ["netops"],
  };
  await signIn.finish(started.cookie, { state: sent.get("state")!, code: "c" }, back, {
    address: "127.0.0.1",
    userAgent: "seed",
  });
}

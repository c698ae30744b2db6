/**
 * A provider and one user signed in through it, made through the services
 * against tests/helpers/fake_idp.ts: rows in `oidc_providers` and
 * `oidc_identities` for the tests that need every table populated.
 */
import type { ProviderInput } from "../../lib/auth/oidc/provider_input.ts";
import { type FakeIdp, startFakeIdp } from "./fake_idp.ts";
import type { TestServer } from "./test_server.ts";

/** The form of a provider "fake" for `idp`, mapping the group `netops` to operator. */
export function fakeProvider(idp: FakeIdp, over: Partial<ProviderInput> = {}): ProviderInput {
  return {
    id: "fake",
    display_name: "Fake IdP",
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    scopes: "openid",
    claim: "groups",
    role_map: "netops=operator",
    enabled: true,
    ...over,
  };
}

export async function seedSso(t: TestServer): Promise<void> {
  await using idp = await startFakeIdp();
  const { providers, signIn } = t.services.sso;
  await providers.create("admin", fakeProvider(idp, { role_map: "netops=viewer" }));
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

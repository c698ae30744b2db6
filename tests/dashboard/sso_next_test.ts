/**
 * Where a single sign-on lands (docs/sso.md): the `next` path given at the
 * start survives the round trip through the provider, and one that resolves
 * off this origin ("/.//host": the dot segment goes, "//host" stays) lands
 * on "/" instead.
 */
import { assertEquals } from "../assert.ts";
import { startFakeIdp } from "../helpers/fake_idp.ts";
import { fakeProvider } from "../helpers/sso_seed.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

/** The page's refresh target after signing in through the provider from `/sso/fake?next=…`. */
async function landing(t: TestServer, setClaims: (nonce: string) => void, next: string) {
  const start = await fetch(`${t.admin}/sso/fake?next=${encodeURIComponent(next)}`, {
    redirect: "manual",
  });
  await start.body?.cancel();
  const to = new URL(start.headers.get("location")!);
  const cookie = start.headers.get("set-cookie")!.split(";")[0];
  setClaims(to.searchParams.get("nonce")!);
  const state = encodeURIComponent(to.searchParams.get("state")!);
  const res = await fetch(`${t.admin}/sso/callback?code=c1&state=${state}`, {
    headers: { cookie },
    redirect: "manual",
  });
  const html = await res.text();
  assertEquals(res.status, 200, html);
  const m = /http-equiv="refresh" content="0;url=([^"]*)"/.exec(html);
  return m?.[1].replace(/&amp;/g, "&");
}

Deno.test("sso: `next` survives the provider round trip, and one resolving to //host lands on /", async () => {
  await using idp = await startFakeIdp();
  await using t = await startTestServer();
  await t.services.sso.providers.create("admin", fakeProvider(idp));
  const setClaims = (nonce: string) => {
    idp.idTokenClaims = { sub: "s-1", aud: idp.clientId, nonce, groups: ["netops"] };
  };
  assertEquals(await landing(t, setClaims, "/peers?tunnel=wg0"), "/peers?tunnel=wg0");
  for (const next of ["/.//evil.example", "/..//evil.example", "/%2e//evil.example"]) {
    assertEquals(await landing(t, setClaims, next), "/", next);
  }
});

/**
 * Single sign-on across two Palisade processes on one PostgreSQL database
 * (docs/sso.md, docs/scaling.md): a sign-in begun on A (the redirect with
 * state, nonce and PKCE, and the sealed pending cookie) is finished by B,
 * whose key for that cookie is the same one in `meta`; the session works on
 * both, and signing out on A goes on to the provider with B's ID token; and two first sign-ins of one identity finishing at once on A and B
 * make one user. A real throwaway cluster, real main.ts processes, and the
 * test-controlled provider of tests/helpers/fake_idp.ts, all on loopback.
 */
import { assert, assertEquals } from "../assert.ts";
import { type FakeIdp, startFakeIdp } from "../helpers/fake_idp.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { type ServerProcess, startServerProcess } from "../../bench/lib/server_process.ts";
import postgres from "postgres";
import { challengeOf } from "../../lib/auth/oidc/pending.ts";

const NAME = "single sign-on on two instances of one PostgreSQL database";

/** A fresh cluster, the fake provider, A and B, and the provider created through A's dashboard. */
async function withPair(
  fn: (idp: FakeIdp, a: ServerProcess, b: ServerProcess, url: string) => Promise<void>,
) {
  await using pg = await startPostgres();
  await using idp = await startFakeIdp();
  const env = { PALISADE_DATABASE_URL: pg.url };
  await using a = await startServerProcess(env);
  await using b = await startServerProcess(env);
  const admin = await passwordLogin(a);
  const made = await fetch(`${a.admin}/sso-providers`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: admin, origin: a.admin },
    body: new URLSearchParams({
      _action: "create",
      id: "fake",
      display_name: "Fake IdP",
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      scopes: "openid email",
      claim: "groups",
      role_map: "netops=operator",
      enabled: "true",
      logout_at_provider: "true",
    }),
  });
  await made.body?.cancel();
  assertEquals(made.headers.get("location"), "/sso-providers/fake", "provider created");
  await fn(idp, a, b, pg.url);
}

async function passwordLogin(s: ServerProcess): Promise<string> {
  const res = await fetch(`${s.admin}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "admin", password: s.password }),
  });
  await res.body?.cancel();
  return sessionCookie(res)!;
}

function sessionCookie(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("svc_session="))?.split(";")[0];
}

/** Begins a sign-in on `s`: the provider's authorization request and the pending cookie. */
async function begin(s: ServerProcess): Promise<{ sent: URLSearchParams; pending: string }> {
  const res = await fetch(`${s.admin}/sso/fake?next=/peers`, { redirect: "manual" });
  await res.body?.cancel();
  assertEquals(res.status, 303);
  const pending = res.headers.getSetCookie().find((c) => c.startsWith("palisade_sso="));
  assert(pending, "the pending sign-in cookie is set");
  return {
    sent: new URL(res.headers.get("location")!).searchParams,
    pending: pending.split(";")[0],
  };
}

/** The provider's redirect back to `s`'s callback; the response. */
function callback(s: ServerProcess, state: string, code: string, pending: string) {
  return fetch(`${s.admin}/sso/callback?${new URLSearchParams({ state, code })}`, {
    headers: { cookie: pending },
    redirect: "manual",
  });
}

async function whoami(s: ServerProcess, cookie: string): Promise<string | undefined> {
  const res = await fetch(`${s.admin}/api/v1/auth/session`, { headers: { cookie } });
  if (res.status !== 200) {
    await res.body?.cancel();
    return undefined;
  }
  return (await res.json()).user.username;
}

/** The users named like `prefix`, read straight from the shared database. */
async function usersLike(url: string, prefix: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ username: string }[]>`
      SELECT username FROM users WHERE username LIKE ${prefix + "%"} ORDER BY username`;
    return rows.map((r) => r.username);
  } finally {
    await sql.end();
  }
}

Deno.test({
  name: "a sign-in begun on A is finished on B, and the session works on both",
  ignore: !havePostgres(NAME),
  fn: () =>
    withPair(async (idp, a, b) => {
      const { sent, pending } = await begin(a);
      assertEquals(sent.get("client_id"), idp.clientId);
      assertEquals(sent.get("code_challenge_method"), "S256");
      assert((sent.get("state") ?? "").length >= 20, "a random state");
      assert((sent.get("nonce") ?? "").length >= 20, "a random nonce");
      idp.claimsByCode.set("code-1", {
        sub: "nora-sub",
        aud: idp.clientId,
        nonce: sent.get("nonce")!,
        preferred_username: "nora",
        groups: ["netops"],
      });
      const res = await callback(b, sent.get("state")!, "code-1", pending);
      const page = await res.text();
      assertEquals(res.status, 200, page);
      assert(page.includes("Signed in"), "B's callback page says signed in");
      // B opened A's cookie: the verifier it sent is the one behind A's challenge.
      const verifier = idp.tokenRequests.at(-1)!.get("code_verifier")!;
      assertEquals(await challengeOf(verifier), sent.get("code_challenge"));
      const session = sessionCookie(res);
      assert(session, "B issued a session");
      assertEquals(await whoami(b, session), "nora");
      assertEquals(await whoami(a, session), "nora");
      // A signs out B's session and opens B's sealed logout cookie: on to the provider.
      const logout = res.headers.getSetCookie().find((c) => c.startsWith("palisade_sso_logout="));
      const out = await fetch(`${a.admin}/logout`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: `${session}; ${logout!.split(";")[0]}`, origin: a.admin },
      });
      await out.body?.cancel();
      const to = new URL(out.headers.get("location")!);
      assertEquals(`${to.origin}${to.pathname}`, `${idp.issuer}/logout`);
      assertEquals(to.searchParams.get("id_token_hint"), idp.idTokens.at(-1));
      assertEquals(await whoami(b, session), undefined);
      // The pending cookie was for one sign-in: replayed on A, it is refused.
      const again = await callback(a, sent.get("state")!, "code-1", "palisade_sso=");
      await again.body?.cancel();
      assertEquals(again.status, 401);
    }),
});

Deno.test({
  name: "two first sign-ins of one identity finishing at once on A and B make one user",
  ignore: !havePostgres(NAME),
  fn: () =>
    withPair(async (idp, a, b, url) => {
      // Three on each instance, all begun first and finished together.
      const runs = [a, b, a, b, a, b];
      const started = await Promise.all(runs.map((s) => begin(s)));
      started.forEach((st, i) =>
        idp.claimsByCode.set(`code-${i}`, {
          sub: "twin-sub",
          aud: idp.clientId,
          nonce: st.sent.get("nonce")!,
          preferred_username: "twin",
          groups: ["netops"],
        })
      );
      const done = await Promise.all(
        runs.map((s, i) =>
          callback(s, started[i].sent.get("state")!, `code-${i}`, started[i].pending)
        ),
      );
      const pages = await Promise.all(done.map((r) => r.text()));
      assertEquals(done.map((r) => r.status), runs.map(() => 200), pages.join("\n"));
      // Each session works on the other instance than the one that issued it.
      const names = await Promise.all(
        done.map((r, i) => whoami(runs[(i + 1) % 2], sessionCookie(r)!)),
      );
      assertEquals(names, runs.map(() => "twin"));
      assertEquals(await usersLike(url, "twin"), ["twin"]);
    }),
});

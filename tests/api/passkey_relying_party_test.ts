/**
 * The relying party a passkey sign-in is checked against when the Host header
 * is forged. With a parent-domain RP ID (PALISADE_WEBAUTHN_RP_ID) a page on a
 * sibling subdomain may ask the user's authenticator for an assertion; only
 * the origin check keeps that page from signing in as the user, so the
 * expected origin must not follow a Host header the relay chose. The request
 * goes over a raw socket: fetch() sets Host itself.
 */
import { assert, assertEquals } from "../assert.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const LEGIT = { id: "example.test", origin: "https://vpn.example.test" };
const SIBLING = "https://evil.example.test";

/** POSTs a urlencoded form with the raw headers given; the status line and headers of the answer. */
async function rawPost(
  base: string,
  path: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
): Promise<string> {
  const { port } = new URL(base);
  const body = new URLSearchParams(fields).toString();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  const lines = [
    `POST ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "content-type: application/x-www-form-urlencoded",
    `content-length: ${new TextEncoder().encode(body).length}`,
    "connection: close",
    "",
    body,
  ];
  await conn.write(new TextEncoder().encode(lines.join("\r\n")));
  const answer = await new Response(conn.readable).text();
  return answer.slice(0, answer.indexOf("\r\n\r\n"));
}

Deno.test("a parent-domain RP ID: an assertion made on a sibling subdomain and relayed with its Host forged does not sign in", async () => {
  await using t = await startTestServer({ env: { PALISADE_WEBAUTHN_RP_ID: LEGIT.id } });
  const { passkeys } = t.services.auth;
  const admin = (await t.services.users.credentials(ADMIN.username))!.user;
  const key = await SoftAuthenticator.create();
  await passkeys.register(
    admin,
    "laptop",
    await key.register(await passkeys.registrationOptions(admin, LEGIT), LEGIT.origin),
    LEGIT,
  );
  // The sibling's page asks for the parent-domain RP ID, which browsers allow.
  const answer = await key.assert(await passkeys.loginOptions(LEGIT), SIBLING);
  const head = await rawPost(t.admin, "/login", {
    host: new URL(SIBLING).host,
    "x-forwarded-proto": "https",
  }, { username: "", password: "", credential: JSON.stringify(answer) });
  assert(head.startsWith("HTTP/1.1 401"), head.split("\r\n")[0]);
  assertEquals(/set-cookie: svc_session=[^;]/i.test(head), false, "a session was issued");

  // The RP ID's own host still signs in from the Host header alone.
  const own = `https://${LEGIT.id}`;
  const ok = await rawPost(t.admin, "/login", {
    host: LEGIT.id,
    origin: own,
    "x-forwarded-proto": "https",
  }, {
    username: "",
    password: "",
    credential: JSON.stringify(await key.assert(await passkeys.loginOptions(LEGIT), own)),
  });
  assert(ok.startsWith("HTTP/1.1 303"), ok.split("\r\n")[0]);
});

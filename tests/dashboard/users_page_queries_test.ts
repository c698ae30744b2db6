/**
 * The Users page reads every listed user's second factors with one query per
 * kind (TOTP, passkeys), not one per user: with 13 users it runs the same SQL
 * reads as with 3, and still shows each user's factors.
 */
import { assert, assertEquals } from "../assert.ts";
import { getPage } from "../helpers/dashboard.ts";
import { rawExec } from "../helpers/raw_sql.ts";
import { traceSql } from "../helpers/sql_trace.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

/** Adds `n` viewers named `<prefix>N`; answers their ids. */
async function addUsers(t: TestServer, prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await t.addUser(`${prefix}${i}`, "viewer");
    ids.push((await t.services.users.credentials(`${prefix}${i}`))!.user.id);
  }
  return ids;
}

/** Second factors by hand: TOTP on (or only pending) and `passkeys` passkeys. */
function seedFactors(t: TestServer, userId: string, totp: "on" | "pending" | null, passkeys = 0) {
  if (totp) {
    rawExec(
      t.store,
      "INSERT INTO user_totp (user_id, secret, created_at, enabled_at) VALUES (?, 'sealed', 1, ?)",
      userId,
      totp === "on" ? 2 : null,
    );
  }
  for (let k = 0; k < passkeys; k++) {
    rawExec(
      t.store,
      `INSERT INTO user_passkeys (id, user_id, name, credential_id, public_key, counter, transports, created_at)
       VALUES (?, ?, 'key', ?, 'pk', 0, '', 1)`,
      `${userId}-k${k}`,
      userId,
      `${userId}-cred${k}`,
    );
  }
}

const factorsOf = (html: string, username: string) =>
  new RegExp(`data-second-factors="${username}"><span>(.*?)</span>`).exec(html)?.[1]
    ?.replace(/<[^>]+>/g, "");

Deno.test("users page: the second factors of 13 users are read with the same SQL statements as of 3", async () => {
  await using t = await startTestServer();
  const sql = traceSql(t.store);
  const [a, b] = await addUsers(t, "first", 2);
  seedFactors(t, a, "on", 2);
  seedFactors(t, b, "pending", 1);
  const cookie = await t.login();
  const render = async () => {
    sql.take();
    const page = await getPage(t, "/users", cookie);
    assertEquals(page.status, 200);
    // The second factors' reads only: background timers (retry polls, housekeeping) read too.
    const reads = sql.take().filter((s) => /^(SELECT|WITH)\b/.test(s))
      .filter((s) => /\b(user_totp|user_passkeys)\b/.test(s));
    return { html: page.html, reads };
  };
  const few = await render();
  assertEquals(factorsOf(few.html, "first0"), "TOTP, 2 passkeys");
  assertEquals(factorsOf(few.html, "first1"), "1 passkey", "a pending enrolment is not TOTP");
  assertEquals(factorsOf(few.html, "admin"), "none");

  const more = await addUsers(t, "more", 10);
  seedFactors(t, more[9], "on");
  const many = await render();
  assertEquals(factorsOf(many.html, "more9"), "TOTP");
  assertEquals(factorsOf(many.html, "more0"), "none");
  assert(few.reads.length > 0, "the page reads second factors");
  assertEquals(many.reads, few.reads);
});

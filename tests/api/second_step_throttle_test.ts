/**
 * The second sign-in step (a ticket, then a code or a passkey) under the same
 * throttle as the password: a user whose codes are being guessed from many
 * addresses is slowed down there too, the way a username under attack is at
 * the password (login_limiter.ts). The ticket stands for a right password,
 * so the code is all that is left to guess.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { UnauthorizedError } from "../../lib/errors.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const RP = { id: "localhost", origin: "http://localhost:8000" };
const from = (address: string) => ({ address, userAgent: "test" });

Deno.test("codes guessed at the second step from many addresses slow that user's next attempt down", async () => {
  await using t = await startTestServer({
    env: {
      PALISADE_LOGIN_SLOWDOWN_AFTER: "4",
      // Longer than a code check takes on a busy machine, so the delay is told apart.
      PALISADE_LOGIN_SLOWDOWN_STEP_MS: "1500",
      PALISADE_LOGIN_SLOWDOWN_MAX_MS: "1500",
    },
  });
  const { auth } = t.services;
  const admin = (await t.services.users.credentials(ADMIN.username))!.user;
  // A passkey makes the password alone insufficient: the sign-in asks for a second step.
  const key = await SoftAuthenticator.create();
  await auth.passkeys.register(
    admin,
    "laptop",
    await key.register(await auth.passkeys.registrationOptions(admin, RP), RP.origin),
    RP,
  );
  const step = await auth.loginStep(ADMIN.username, ADMIN.password, from("198.51.100.20"), {});
  if (!("ticket" in step)) throw new Error("a password alone signed in");
  // One wrong code from each of six addresses: no address reaches its own limit, the user passes 4.
  for (let i = 1; i <= 6; i++) {
    await assertRejects(
      () => auth.loginWithTicket(step.ticket, { totpCode: "000000" }, from(`192.0.2.${i}`)),
      UnauthorizedError,
    );
  }
  const started = performance.now();
  const err = await assertRejects(
    () => auth.loginWithTicket(step.ticket, { totpCode: "000000" }, from("192.0.2.99")),
    UnauthorizedError,
  );
  const elapsed = performance.now() - started;
  assertEquals((err as UnauthorizedError).code, "totp_invalid");
  assert(elapsed >= 1500, `the attempt took ${elapsed} ms, less than the 1500 ms slow-down`);
});

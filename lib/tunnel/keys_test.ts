import { assert, assertEquals } from "../../tests/assert.ts";
import { haveSystem, run } from "../../tests/helpers/system.ts";
import { isWireGuardKey, keys, presharedKey } from "./keys.ts";

Deno.test("keys() makes a pair whose public key wg derives from the private key", async () => {
  const pair = await keys();
  assert(isWireGuardKey(pair.privateKey) && isWireGuardKey(pair.publicKey));
  assert(isWireGuardKey(presharedKey()));
  if (!haveSystem("keys() wg pubkey", ["wg"])) return;
  // Secret on stdin, as everywhere else.
  const out = await run("wg", ["pubkey"], { stdin: pair.privateKey + "\n" });
  assertEquals(out.stdout.trim(), pair.publicKey);
});

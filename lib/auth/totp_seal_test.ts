import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { TotpSealer } from "./totp_seal.ts";

/** A `meta` table in memory with a known key, so the test can seal as WebCrypto does by hand. */
const KEY = new Uint8Array(32).fill(7);
const meta = {
  get: (k: string) =>
    Promise.resolve(k === "totp_seal_key" ? btoa(String.fromCharCode(...KEY)) : undefined),
  insertIfAbsent: () => Promise.resolve(),
};

Deno.test("TotpSealer opens secrets sealed in the first format (standard base64) and binds them to their user", async () => {
  const secret = new Uint8Array([251, 255, 190, 1, 2, 3, 4, 5, 6, 7]);
  // The first format: v1.<iv>.<ciphertext> in standard base64 with padding, the user id as AAD.
  const key = await crypto.subtle.importKey("raw", KEY, "AES-GCM", false, ["encrypt"]);
  const iv = new Uint8Array(12).fill(0xfb);
  const ad = new TextEncoder().encode("user-1");
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: ad }, key, secret),
  );
  const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
  const old = `v1.${b64(iv)}.${b64(ct)}`;
  const sealer = await TotpSealer.open(meta);
  assertEquals(await sealer.open("user-1", old), secret);
  await assertRejects(() => sealer.open("user-2", old));
  assertEquals(await sealer.open("user-1", await sealer.seal("user-1", secret)), secret);
});

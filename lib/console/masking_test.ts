import { assertEquals, assertStringIncludes } from "../../tests/assert.ts";
import { keys, presharedKey } from "../tunnel/keys.ts";
import { MASK, maskKeys, maskValue, maskWgDump } from "./masking.ts";

Deno.test("maskWgDump hides the private key and preshared keys of a dump and keeps public keys", async () => {
  const iface = await keys();
  const peer = await keys();
  const bare = await keys();
  const psk = presharedKey();
  const dump = [
    `${iface.privateKey}\t${iface.publicKey}\t51820\toff`,
    `${peer.publicKey}\t${psk}\t(none)\t10.8.0.2/32\t0\t0\t0\toff`,
    `${bare.publicKey}\t(none)\t(none)\t10.8.0.3/32\t0\t0\t0\t25`,
    "",
  ].join("\n");
  const out = maskWgDump(dump);
  for (const secret of [iface.privateKey, psk]) assertEquals(out.includes(secret), false);
  for (const pub of [iface.publicKey, peer.publicKey, bare.publicKey]) {
    assertStringIncludes(out, pub);
  }
  assertEquals(out.split("\n")[0].split("\t")[0], MASK);
  assertEquals(out.split("\n")[1].split("\t")[1], MASK);
  assertEquals(out.split("\n")[2].split("\t")[1], "(none)");
});

Deno.test("maskKeys and maskValue hide key-shaped values outside public_key, wherever they sit", async () => {
  const k = await keys();
  assertEquals(maskKeys(`x ${k.privateKey} y`), `x ${MASK} y`);
  // Longer base64 runs (a signature, a hash) are not keys.
  const long = `${k.privateKey.slice(0, 43)}${k.privateKey.slice(0, 43)}==`;
  assertEquals(maskKeys(long), long);
  assertEquals(
    maskValue({ public_key: k.publicKey, note: [k.privateKey], n: 1 }),
    { public_key: k.publicKey, note: [MASK], n: 1 },
  );
});

import { assert, assertEquals, assertStringIncludes } from "../../tests/assert.ts";
import { haveSystem, run } from "../../tests/helpers/system.ts";
import { crc32 } from "./png.ts";
import { qr } from "./qr.ts";

const CONFIG = `[Interface]
PrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=
Address = 10.8.0.2/32
MTU = 1420

[Peer]
PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=
AllowedIPs = 0.0.0.0/0, ::/0
Endpoint = vpn.example.net:51820
`;

Deno.test("crc32() matches the reference value of '123456789'", () => {
  assertEquals(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
});

Deno.test("qr() PNG decodes back to the exact text with zbarimg", async () => {
  const images = await qr(CONFIG);
  assertStringIncludes(images.svg, "<svg");
  assert(images.data_url.startsWith("data:image/png;base64,"));
  assertEquals(images.data_url.slice("data:image/png;base64,".length), images.png_base64);
  if (!haveSystem("qr() zbarimg", ["zbarimg"])) return;
  const dir = await Deno.makeTempDir({ prefix: "palisade-qr-" });
  try {
    const file = `${dir}/qr.png`;
    await Deno.writeFile(file, Uint8Array.from(atob(images.png_base64), (c) => c.charCodeAt(0)));
    const out = await run("zbarimg", ["--raw", "-q", "--oneshot", file]);
    // With --raw and a payload ending in a newline, zbarimg prints the payload as is.
    assertEquals(out.stdout, CONFIG);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

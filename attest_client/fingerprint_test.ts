import { assertEquals } from "../tests/assert.ts";
import { fingerprint } from "./fingerprint.ts";

Deno.test("fingerprint() gives the aspect ratio with 10 digits, the pixel ratio as a decimal string", () => {
  assertEquals(
    fingerprint({
      screen: { width: 1920, height: 1080 },
      devicePixelRatio: 1.25,
      navigator: { hardwareConcurrency: 8 },
    }),
    { aspectRatio: "1.7777777778", devicePixelRatio: "1.25", hardwareConcurrency: 8 },
  );
  assertEquals(fingerprint({ screen: { width: 800, height: 600 }, devicePixelRatio: 2 }), {
    aspectRatio: "1.3333333333",
    devicePixelRatio: "2",
    hardwareConcurrency: 1,
  });
});

Deno.test("fingerprint() sends 1 core when none is reported and never an exponent", () => {
  const fp = fingerprint({
    screen: { width: 0, height: 0 },
    innerWidth: 390,
    innerHeight: 844,
    devicePixelRatio: 1e-7,
    navigator: { hardwareConcurrency: 0 },
  });
  assertEquals(fp, {
    aspectRatio: "0.4620853081",
    devicePixelRatio: "0.0000001",
    hardwareConcurrency: 1,
  });
});

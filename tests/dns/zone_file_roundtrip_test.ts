/**
 * Zone files from BIND and NSD go in and come out unchanged in meaning:
 * BIND's own parser (named-checkzone -D) is the oracle for "the same
 * records", and named-checkzone and nsd-checkzone must accept the export.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startDnsStack } from "./stack.ts";

const FIXTURES = new URL("../fixtures/dns/", import.meta.url);

/** The zone as BIND reads it: one normalized line per record, sorted. */
async function bindRecords(zone: string, file: string): Promise<string[]> {
  const r = await run("named-checkzone", ["-D", "-o", "-", zone, file]);
  return r.stdout.split("\n").filter((l) => l.trim() && !l.startsWith(";"))
    .map((l) => l.trim().split(/\s+/).join(" ").toLowerCase()).sort();
}

for (
  const [zone, fixture] of [["example.com", "bind_example.zone"], [
    "example.org",
    "nsd_example.zone",
  ]]
) {
  Deno.test(`importZone() → exportZone() keeps every record of ${fixture}, and BIND and NSD accept the export`, async () => {
    if (!haveSystem(`zone round trip ${fixture}`, ["named-checkzone", "nsd-checkzone"])) return;
    await using s = await startDnsStack();
    const original = new URL(fixture, FIXTURES).pathname;
    const text = await Deno.readTextFile(original);
    const result = await s.service.importZone("test", zone, text);
    assertEquals(result.created, true);
    const exported = await s.service.exportZone(zone);
    const out = `${s.dir}/${zone}.zone`;
    await Deno.writeTextFile(out, exported);
    assertEquals(await bindRecords(zone, out), await bindRecords(zone, original));
    assertStringIncludes((await run("named-checkzone", [zone, out])).stdout, "OK");
    await run("nsd-checkzone", [zone, out]);
    // A second round trip through the service is a fixed point.
    await using s2 = await startDnsStack();
    await s2.service.importZone("test", zone, exported);
    assertEquals(await s2.service.exportZone(zone), exported);
  });
}

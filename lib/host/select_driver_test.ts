import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { createLogger } from "../log/log.ts";
import { ConfigError } from "../errors.ts";
import { selectDriver } from "./select_driver.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger("info", (l) => lines.push(JSON.parse(l))) };
}

/** Runs a shell line; its exit code and output. */
async function sh(line: string): Promise<{ code: number; stdout: string }> {
  const path = `${Deno.env.get("PATH") ?? ""}:/usr/sbin:/sbin`;
  const out = await new Deno.Command("sh", { args: ["-c", line], env: { PATH: path } }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

/**
 * Why the linux driver cannot run here, decided by the shell (`id -u`,
 * `command -v`, /sys/module) rather than by the module under test; null
 * when it can.
 */
async function linuxBlocker(): Promise<string | null> {
  if ((await sh("id -u")).stdout.trim() !== "0") return "not running as root";
  const installed = async (tool: string) => (await sh(`command -v ${tool}`)).code === 0;
  const missing = [];
  for (const tool of ["ip", "wg"]) if (!(await installed(tool))) missing.push(tool);
  if (missing.length) return `${missing.join(", ")} not installed`;
  const kernel = (await sh("test -d /sys/module/wireguard")).code === 0;
  if (!kernel && !(await installed("wireguard-go"))) {
    return "no WireGuard kernel module and wireguard-go not installed";
  }
  return null;
}

Deno.test("selectDriver() picks none when configured and logs it", () => {
  const { lines, logger } = capture();
  const d = selectDriver({ driver: "none", logger });
  assertEquals([d.name, d.active], ["none", false]);
  assertEquals([lines[0].msg, lines[0].driver], ["Host driver selected", "none"]);
});

Deno.test("selectDriver() auto picks linux exactly when linux can run here, and logs why", async () => {
  const { lines, logger } = capture();
  const why = await linuxBlocker();
  const d = selectDriver({ driver: "auto", logger, netns: "pltun-unused" });
  assertEquals([d.name, d.active], why ? ["none", false] : ["linux", true]);
  assertEquals(lines[0].driver, d.name);
  assertEquals(lines[0].reason, why ?? "auto");
  if (why) {
    assertThrows(
      () => selectDriver({ driver: "linux", logger }),
      ConfigError,
      "PALISADE_HOST_DRIVER",
    );
  } else {
    assertEquals(selectDriver({ driver: "linux", logger }).name, "linux");
  }
});

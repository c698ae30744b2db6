import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { createLogger } from "../log/log.ts";
import { ConfigError } from "../errors.ts";
import { linuxUnavailable, selectDriver } from "./select_driver.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger("info", (l) => lines.push(JSON.parse(l))) };
}

Deno.test("selectDriver() picks none when configured and logs it", () => {
  const { lines, logger } = capture();
  const d = selectDriver({ driver: "none", logger });
  assertEquals([d.name, d.active], ["none", false]);
  assertEquals([lines[0].msg, lines[0].driver], ["Host driver selected", "none"]);
});

Deno.test("selectDriver() auto picks linux exactly when linux can run here, and logs why", () => {
  const { lines, logger } = capture();
  const why = linuxUnavailable();
  const d = selectDriver({ driver: "auto", logger, netns: "pltun-unused" });
  assertEquals(d.name, why ? "none" : "linux");
  assertEquals(lines[0].driver, d.name);
  assertEquals(lines[0].reason, why ?? "auto");
  if (why) {
    assertThrows(
      () => selectDriver({ driver: "linux", logger }),
      ConfigError,
      "PALISADE_HOST_DRIVER",
    );
  }
});

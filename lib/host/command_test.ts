import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { HostError } from "../errors.ts";
import { command } from "./command.ts";

Deno.test("command() runs an argument array, feeds stdin, and reports failures as HostError", async () => {
  const run = command();
  assertEquals((await run("cat", [], { stdin: "a; rm -rf /" })).stdout, "a; rm -rf /");
  await assertRejects(() => run("ls", ["/no/such/path"]), HostError, "cannot access");
  assertEquals((await run("ls", ["/no/such/path"], { allowFail: true })).code, 2);
});

Deno.test("command() kills a command that hangs past its timeout", async () => {
  const started = performance.now();
  await assertRejects(
    () => command()("sleep", ["10"], { timeoutMs: 200 }),
    HostError,
    "timed out after 200 ms",
  );
  assertEquals(performance.now() - started < 5000, true);
});

/**
 * The layout rules of docs/architecture.md hold for the whole tree: file and
 * function sizes, SQL only in the store and repositories, no literal status
 * in a route, no decision from an error's message text, and lib/ free of the
 * HTTP layer. `deno task layout` prints the same findings.
 */
import { assertEquals } from "./assert.ts";
import { checkLayout, lineRules, longFunctions } from "../scripts/layout.ts";

Deno.test("the tree follows the layout rules of docs/architecture.md (deno task layout)", async () => {
  const found = (await checkLayout()).map((v) => `${v.file}:${v.line} ${v.rule} ${v.detail}`);
  assertEquals(found, []);
});

Deno.test("longFunctions() finds a function over 80 lines, named, and passes one of 80", () => {
  const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const a${i} = ${i};`);
  const text = [
    "export function long() {",
    ...body(81),
    "}",
    "const short = () => {",
    ...body(80),
    "};",
  ].join("\n");
  const found = longFunctions("lib/x.ts", text);
  assertEquals(found.map((v) => [v.line, v.detail]), [[1, "long has 81 lines (at most 80)"]]);
});

Deno.test("lineRules() flags SQL outside repositories, decisions on message text, literal statuses in routes and lib importing the HTTP layer", () => {
  const rules = (file: string, line: string) => lineRules(file, [line]).map((v) => v.rule);
  assertEquals(rules("lib/dns/zones.ts", 'store.get("SELECT * FROM dns_zones")'), [
    "sql-outside-repo",
  ]);
  assertEquals(rules("lib/dns/zone_repo.ts", 'store.get("SELECT * FROM dns_zones")'), []);
  assertEquals(rules("lib/store/store.ts", "this.db.prepare(sql)"), []);
  assertEquals(rules("server/http/form.ts", 'if (err.message.startsWith("Name ")) {'), [
    "decides-on-message",
  ]);
  assertEquals(rules("lib/x.ts", "const m = /: (\\w+)/.exec(err.message);"), [
    "decides-on-message",
  ]);
  assertEquals(rules("routes/admin/x.ts", "    status: 201,"), ["literal-status"]);
  assertEquals(rules("routes/admin/x.ts", "    status: Status.Created,"), []);
  assertEquals(rules("lib/x.ts", 'import { Hono } from "hono";'), ["lib-import"]);
  assertEquals(rules("lib/x.ts", 'import { toHex } from "../../wasm/glue.ts";'), ["lib-import"]);
  assertEquals(rules("lib/attest/core.ts", '} from "../../wasm/glue.ts";'), []);
  assertEquals(rules("lib/x.ts", 'import { define } from "../server/http/define.ts";'), [
    "lib-import",
  ]);
  assertEquals(rules("lib/tunnel/x.ts", 'import * as gen from "../../routes/admin.gen.ts";'), [
    "lib-import",
  ]);
  assertEquals(rules("lib/x.ts", 'import { manifest } from "@/routes/admin.gen.ts";'), [
    "lib-import",
  ]);
  // A domain folder of lib/ named routes is not the top-level routes/.
  assertEquals(rules("lib/tunnel/x.ts", 'import { RouteRepo } from "./routes/route_repo.ts";'), []);
});

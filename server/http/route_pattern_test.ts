import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { comparePatterns, governs, parseRouteFile } from "./route_pattern.ts";

Deno.test("parseRouteFile() maps Fresh file names to URL patterns", () => {
  assertEquals(parseRouteFile("index.tsx").pattern, "/");
  assertEquals(parseRouteFile("api/v1/peers/index.ts").pattern, "/api/v1/peers");
  assertEquals(parseRouteFile("api/v1/peers/[id].ts").pattern, "/api/v1/peers/:id");
  assertEquals(parseRouteFile("api/v1/peers/[id]/qr.ts").pattern, "/api/v1/peers/:id/qr");
  assertEquals(parseRouteFile("api/v1/openapi.json.ts").pattern, "/api/v1/openapi.json");
  assertEquals(parseRouteFile("static/[...path].ts").pattern, "/static/:path{.+}");
  assertEquals(parseRouteFile("(dashboard)/audit.tsx").pattern, "/audit");
  assertEquals(parseRouteFile("(dashboard)/audit.tsx").dir, "/(dashboard)");
  assertEquals(parseRouteFile("api/_middleware.ts").kind, "middleware");
  assertEquals(parseRouteFile("(dashboard)/_layout.tsx").kind, "layout");
  assertThrows(() => parseRouteFile("_secret.ts"), Error, "Unknown special route file");
  assertThrows(() => parseRouteFile("a[b].ts"), Error, "Unsupported route segment");
});

Deno.test("comparePatterns() puts static segments before parameters and rest matches", () => {
  const sorted = ["/interfaces/:id", "/interfaces/upstreams/preview", "/:path{.+}", "/interfaces"]
    .sort(
      comparePatterns,
    );
  assertEquals(sorted, [
    "/interfaces/upstreams/preview",
    "/interfaces/:id",
    "/interfaces",
    "/:path{.+}",
  ]);
});

Deno.test("governs() applies a folder's middleware to its own subtree only", () => {
  assertEquals(governs("/", "/(dashboard)"), true);
  assertEquals(governs("/(dashboard)", "/(dashboard)/zones"), true);
  assertEquals(governs("/(dashboard)", "/"), false);
  assertEquals(governs("/api", "/apix"), false);
});

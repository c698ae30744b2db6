/**
 * The protected default interface: with PALISADE_DEFAULT_INTERFACE on (the
 * default outside tests), start creates wg0 when it is not stored, with
 * 10.8.0.1/24 and the wireguard.server_port setting (51820 when unset), once;
 * it cannot be deleted or disabled; and an address already in use leaves the
 * store as it was.
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";

const ON = { PALISADE_DEFAULT_INTERFACE: "true" };
type Iface = { id: string; name: string; address_v4: string; listen_port: number };

Deno.test("first start creates wg0 (10.8.0.1/24, port 51820), protected, and a restart does not create another", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-wg0-" });
  try {
    {
      await using t = await startTestServer({ env: ON, dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      const list = (await api.get("/interfaces")).body.interfaces as Iface[];
      assertEquals(
        list.map((i) => [i.name, i.address_v4, i.listen_port]),
        [["wg0", "10.8.0.1/24", 51820]],
      );
      assertEquals((await api.del(`/interfaces/${list[0].id}`)).status, 403);
      assertEquals((await api.post(`/interfaces/${list[0].id}/disable`)).status, 403);
      assertEquals(
        (await t.services.audit.list({ event_type: "interface.created", limit: 5, offset: 0 }))
          .records
          .map((r) => r.actor),
        ["system"],
      );
    }
    {
      await using t = await startTestServer({ env: ON, dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      assertEquals(((await api.get("/interfaces")).body.interfaces as Iface[]).map((i) => i.name), [
        "wg0",
      ]);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("wg0 takes its listen port from wireguard.server_port; an address in use leaves it out", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-wg0-" });
  const other = await Deno.makeTempDir({ prefix: "palisade-wg0-" });
  try {
    {
      await using t = await startTestServer({ dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      const set = await api.put("/system/settings", {
        key: "wireguard.server_port",
        value: "51999",
      });
      assertEquals(set.status, 200);
    }
    {
      await using t = await startTestServer({ env: ON, dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      assertEquals(
        ((await api.get("/interfaces")).body.interfaces as Iface[]).map((
          i,
        ) => [i.name, i.listen_port]),
        [["wg0", 51999]],
      );
    }
    {
      await using t = await startTestServer({ dataDir: other });
      const api = apiClient(t.admin, { cookie: await t.login() });
      const made = await api.post("/interfaces", { name: "wg7", address_v4: "10.8.0.1/24" });
      assertEquals(made.status, 201);
    }
    {
      await using t = await startTestServer({ env: ON, dataDir: other });
      const api = apiClient(t.admin, { cookie: await t.login() });
      assertEquals(((await api.get("/interfaces")).body.interfaces as Iface[]).map((i) => i.name), [
        "wg7",
      ]);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});

import { assertEquals, assertThrows } from "../../../tests/assert.ts";
import { UnprocessableError } from "../../errors.ts";
import { parseRoleMap, type ProviderInput, providerSettings } from "./provider_input.ts";

const input: ProviderInput = {
  id: "Corp",
  display_name: " Corp SSO ",
  issuer: "https://idp.example.org/realms/x",
  client_id: "palisade",
  client_secret: "s",
  scopes: "email openid  groups",
  claim: "",
  role_map: "netops = operator\n\nAdmins=Administrator",
  enabled: true,
};

Deno.test("provider settings: normalized id, openid first, default claim, role map by line", () => {
  const s = providerSettings(input, false);
  assertEquals([s.id, s.displayName, s.scopes, s.claim], [
    "corp",
    "Corp SSO",
    "openid email groups",
    "groups",
  ]);
  assertEquals({ ...s.roleMap }, { netops: "operator", Admins: "administrator" });
});

Deno.test("provider settings: plain http only on loopback, a secret on create, known roles only", () => {
  const fieldOf = (f: () => unknown) =>
    (assertThrows(f, UnprocessableError) as UnprocessableError).field;
  assertEquals(
    fieldOf(() => providerSettings({ ...input, issuer: "http://idp.example.org" }, false)),
    "issuer",
  );
  assertEquals(
    providerSettings({ ...input, issuer: "http://127.0.0.1:9000" }, false).issuer,
    "http://127.0.0.1:9000",
  );
  assertEquals(
    fieldOf(() => providerSettings({ ...input, client_secret: "" }, false)),
    "client_secret",
  );
  assertEquals(providerSettings({ ...input, client_secret: "" }, true).clientSecret, "");
  assertEquals(fieldOf(() => parseRoleMap("netops=root")), "role_map");
  assertEquals(fieldOf(() => parseRoleMap("")), "role_map");
  assertEquals(fieldOf(() => providerSettings({ ...input, id: "a/b" }, false)), "id");
});

import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ConfigError } from "../errors.ts";
import { parseConfig } from "./config.ts";

Deno.test("the passkeys' relying party: empty by default, set from its variables, a bad one named", () => {
  assertEquals(parseConfig({}).webauthn, { rpId: "", origin: "" });
  const c = parseConfig({
    PALISADE_WEBAUTHN_RP_ID: "VPN.example.org",
    PALISADE_WEBAUTHN_ORIGIN: "https://vpn.example.org:8443/",
  });
  assertEquals(c.webauthn, { rpId: "vpn.example.org", origin: "https://vpn.example.org:8443" });
  for (
    const [env, value] of [
      ["PALISADE_WEBAUTHN_RP_ID", "https://vpn.example.org"],
      ["PALISADE_WEBAUTHN_ORIGIN", "vpn.example.org"],
      ["PALISADE_WEBAUTHN_ORIGIN", "https://vpn.example.org/login"],
    ]
  ) {
    const err = assertThrows(() => parseConfig({ [env]: value }), ConfigError);
    assertEquals((err as ConfigError).variable, env);
  }
});

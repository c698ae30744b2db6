/**
 * Options of passkeys (docs/security.md, "Passkeys"): the WebAuthn relying
 * party. Both default to empty: the dashboard's own host and origin as the
 * browser reached it (the Host header, and X-Forwarded-Proto's scheme).
 * Part of `OPTIONS`, in `--help` order.
 */
import { ConfigError } from "../errors.ts";
import type { Option } from "./option.ts";

/** The relying party passkeys are registered for; "" takes it from each request. */
export interface WebauthnSettings {
  rpId: string;
  origin: string;
}

export const WEBAUTHN_DEFAULTS: WebauthnSettings = { rpId: "", origin: "" };

export const WEBAUTHN_OPTIONS: Option[] = [
  {
    env: "PALISADE_WEBAUTHN_RP_ID",
    flag: "--webauthn-rp-id",
    default: "",
    description:
      "Passkeys' relying party ID: the dashboard's host name (or a parent domain of it, which then needs --webauthn-origin); empty: the host the browser reached",
    apply: (c, v, n) => {
      const id = v.trim().toLowerCase();
      if (id && !/^[a-z0-9.-]+$/.test(id)) throw new ConfigError(n, `"${v}" is not a host name`);
      c.webauthn.rpId = id;
    },
  },
  {
    env: "PALISADE_WEBAUTHN_ORIGIN",
    flag: "--webauthn-origin",
    default: "",
    description:
      "The dashboard's origin passkeys must be used from, like https://vpn.example.org; empty: the origin the browser reached",
    apply: (c, v, n) => {
      const o = v.trim();
      if (o) {
        let url: URL;
        try {
          url = new URL(o);
        } catch {
          throw new ConfigError(n, `"${o}" is not an origin like https://example.org`);
        }
        if (url.origin !== o.replace(/\/$/, "")) {
          throw new ConfigError(n, `"${o}" is not an origin like https://example.org`);
        }
        c.webauthn.origin = url.origin;
      } else c.webauthn.origin = "";
    },
  },
];

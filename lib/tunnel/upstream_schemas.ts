/**
 * Request and response shapes of POST /interfaces/upstreams/preview and
 * /import, in zod (docs/tunnels.md, "Upstream import"). The body checks types
 * only; the configuration's syntax and meaning are the parser's (400 or 422
 * on `config`, naming the line and key).
 */
import { z } from "zod";
import { documented, patternOf } from "../schema_doc.ts";
import { InterfaceSchema, PeerSchema } from "./response_schemas.ts";
import type { UpstreamImport, UpstreamPreview } from "./upstream_import.ts";
import { CONFIG_MAX } from "./upstream_parse.ts";
import { INTERFACE_NAME } from "./validate.ts";

/** The body of both routes. */
export const upstreamBodySchema = z.object({
  name: documented(z.string(), {
    pattern: patternOf(INTERFACE_NAME),
    description: 'Interface name; default the first free of "upstream", "upstream-1", …',
  }).optional(),
  config: documented(z.string(), {
    description:
      `A WireGuard configuration in wg-quick format with one [Interface] and exactly one [Peer], at most ${CONFIG_MAX} characters`,
    // The keys are the examples of wg(8)'s manual page.
    examples: [
      "[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\nAddress = 10.200.0.2/32\nDNS = 10.200.0.1\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nEndpoint = vpn.example.net:51820\nAllowedIPs = 0.0.0.0/0, ::/0\n",
    ],
  }),
}).strict();

const IgnoredSchema = z.object({
  line: z.number().int(),
  section: z.enum(["Interface", "Peer"]),
  key: z.string(),
  reason: z.string(),
});

const redacted = z.string().describe('Always "[redacted]"');

export const UpstreamPreviewSchema = z.object({
  interface: z.object({
    name: z.string(),
    role: z.literal("upstream"),
    address_v4: z.string().describe("The first IPv4 Address: the interface's address"),
    addresses_v4: z.array(z.string()),
    addresses_v6: z.array(z.string()).describe("Not applied: interfaces are IPv4 only"),
    listen_port: z.null().describe("Dynamic"),
    mtu: z.number().int(),
    dns: z.array(z.string()).describe("Shown only: the host's resolver is not changed"),
    public_key: z.string().describe("Derived from the PrivateKey"),
    private_key: redacted,
  }),
  peer: z.object({
    name: z.string(),
    public_key: z.string(),
    preshared_key: redacted.nullable(),
    endpoint: z.string(),
    allowed_ips: z.array(z.string()),
    keepalive: z.number().int().nullable(),
  }),
  ignored: z.array(IgnoredSchema).describe("Keys import does not apply, with their lines"),
});

export const UpstreamImportSchema = z.object({
  interface: InterfaceSchema,
  peer: PeerSchema,
  ignored: z.array(IgnoredSchema),
  reconcile: z.object({ verified: z.boolean(), detail: z.string() }),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof UpstreamPreviewSchema>, UpstreamPreview>>();
same<Same<z.output<typeof UpstreamImportSchema>, UpstreamImport>>();

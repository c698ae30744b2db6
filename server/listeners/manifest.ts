/**
 * Every listener's generated route table and the islands, as one manifest
 * for the process that serves them all. A listener served elsewhere (the
 * attestation threads) imports only its own table.
 */
import type { Manifest } from "../http/define.ts";
import { routes as admin } from "../../routes/admin.gen.ts";
import { routes as attest } from "../../routes/attest.gen.ts";
import { routes as dns_api } from "../../routes/dns_api.gen.ts";
import { islands } from "../../islands/_registry.gen.ts";

export const manifest: Manifest = { listeners: { admin, attest, dns_api }, islands };

/**
 * The attestation listener's app: its own route table only, behind the
 * exact-path front door. Served by the attestation threads, or by the main
 * thread when there are none.
 */
import { routes } from "../../../routes/attest.gen.ts";
import { buildListenerApp, type ListenerApp } from "../../http/router.ts";
import type { AttestServices } from "./context.ts";
import { exactPathFetch } from "./exact_paths.ts";

/** The attestation app over its services. */
export function buildAttestApp(services: AttestServices): ListenerApp {
  const app = buildListenerApp({ name: "attest", files: routes, services });
  return { ...app, fetch: exactPathFetch(app) };
}

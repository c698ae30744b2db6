/**
 * The attestation listener's app: its own route table only, behind the
 * exact-path front door. Served by the attestation threads, or by the main
 * thread when there are none.
 */
import type { Services } from "../../../lib/services.ts";
import { routes } from "../../../routes/attest.gen.ts";
import { buildListenerApp, type ListenerApp } from "../../http/router.ts";
import { exactPathFetch } from "./exact_paths.ts";

/** The attestation app over `services` (the routes use config, log and attest). */
export function buildAttestApp(services: Services): ListenerApp {
  const app = buildListenerApp({ name: "attest", files: routes, services });
  return { ...app, fetch: exactPathFetch(app) };
}

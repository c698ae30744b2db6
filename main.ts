/**
 * Palisade: one process, one store (the embedded SQLite file, or PostgreSQL
 * shared by several instances: docs/scaling.md), four listeners.
 * config → store → services → listeners; SIGINT/SIGTERM shut down gracefully.
 */
import { helpText, parseConfig } from "./lib/config/config.ts";
import { ConfigError } from "./lib/errors.ts";
import { createLogger } from "./lib/log/log.ts";
import { createServices } from "./lib/services.ts";
import type { StoreEngine } from "./lib/store/engine.ts";
import { closeEngine, engineLocation, openEngine } from "./lib/store/open_engine.ts";
import { gitCommit } from "./lib/system/git_commit.ts";
import { manifest } from "./server/listeners/manifest.ts";
import { startServer } from "./server/listeners/start.ts";

async function main(): Promise<number> {
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
    console.log(helpText());
    return 0;
  }
  let config;
  try {
    config = parseConfig(Deno.env.toObject(), Deno.args);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`palisade: invalid configuration: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  let engine: StoreEngine;
  try {
    // Backups are snapshots of the SQLite file; PostgreSQL has its own (docs/scaling.md).
    if (config.database.url === null) {
      await Deno.mkdir(`${config.dataDir}/backups`, { recursive: true, mode: 0o700 });
    }
    engine = await openEngine(config);
  } catch (err) {
    // The location never carries the URL's user or password.
    console.error(
      `palisade: cannot open the store at "${engineLocation(config)}": ${(err as Error).message}`,
    );
    return 1;
  }
  const services = await createServices({
    config,
    engine,
    log,
    commit: await gitCommit(new URL("./", import.meta.url)),
  });
  const first = await services.users.ensureFirstAdministrator(
    config.adminUser,
    config.adminPassword,
  );
  if (first.generatedPassword) {
    // Printed once, on the console only (never the log): the operator needs it to sign in.
    console.log(
      `first administrator "${config.adminUser}" created with password: ${first.generatedPassword}`,
    );
  }

  // Listen for signals before announcing the listeners, so a stop request
  // that follows the announcement immediately is still graceful.
  const stopped = Promise.withResolvers<void>();
  const onSignal = () => stopped.resolve();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);

  let server;
  try {
    server = await startServer(services, manifest);
  } catch (err) {
    console.error(`palisade: cannot start listeners: ${(err as Error).message}`);
    await services.stop();
    await closeEngine(engine);
    return 1;
  }
  console.log(`admin listening on http://${server.addresses.admin}`);
  console.log(`attestation listening on http://${server.addresses.attest}`);
  console.log(`dns-api listening on http://${server.addresses.dnsApi}`);
  console.log(`dns listening on ${server.addresses.dns} (udp+tcp)`);
  log.info("started", { listeners: server.addresses });
  // Stored tunnel state goes to the host once the listeners are up, so a reboot loses nothing.
  await services.start();

  await stopped.promise;
  log.info("shutting down");
  await server.shutdown();
  await services.stop();
  await closeEngine(engine);
  log.info("stopped");
  return 0;
}

Deno.exit(await main());

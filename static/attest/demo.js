// The demo page's view of the attestation client: it listens to the status
// events the embed script dispatches on `document` (so the load order of the
// two async/deferred scripts does not matter) and renders them. A file of its
// own because the page's CSP allows no inline script.
"use strict";

const STATUS_EVENT = "palisade-attest:status";
const READY_EVENT = "palisade-attest:ready";

const $ = (id) => document.getElementById(id);
let current = null;

const STATE_TEXT = {
  idle: "Not started.",
  initializing: "Creating a session…",
  active: "Session active: heartbeats are being signed and sent.",
  restarting: "A heartbeat was rejected; creating a new session…",
  stopped: "Stopped.",
  error: "The attestation client failed to load.",
};

function render(status) {
  current = status;
  $("state").textContent = status.state;
  $("session-id").textContent = status.sessionId ? `${status.sessionId.slice(0, 12)}…` : "none";
  $("session-id").title = status.sessionId ?? "";
  $("chain-length").textContent = String(status.chainLength);
  $("last-result").textContent = status.lastResult ?? "none yet";
  $("last-result").dataset.result = status.lastResult ?? "";
  $("restarts").textContent = String(status.restarts);
  let text = STATE_TEXT[status.state] ?? status.state;
  if (status.state === "active" && status.lastResult === "rejected") {
    text = "The last heartbeat was rejected, so a new session started. " +
      "Move your pointer in the box above, with a pause now and then.";
  }
  if (status.error) text += ` ${status.error}`;
  // Only real changes go to the live region, so screen readers are not flooded.
  if ($("status").textContent !== text) $("status").textContent = text;
  const running = ["initializing", "active", "restarting"].includes(status.state);
  $("toggle").textContent = running ? "Stop" : "Start";
  $("toggle").disabled = !globalThis.PalisadeAttest;
  renderCountdown();
}

function renderCountdown() {
  const at = current?.nextHeartbeatAt;
  $("next-heartbeat").textContent = at
    ? `in ${Math.max(0, (at - Date.now()) / 1000).toFixed(1)} s`
    : "not scheduled";
}

function attach(api) {
  $("toggle").disabled = false;
  render(api.status);
}

document.addEventListener(STATUS_EVENT, (e) => render(e.detail));
document.addEventListener(READY_EVENT, (e) => attach(e.detail));
if (globalThis.PalisadeAttest) attach(globalThis.PalisadeAttest);

$("toggle").addEventListener("click", () => {
  const api = globalThis.PalisadeAttest;
  if (!api) return;
  if (["initializing", "active", "restarting"].includes(api.status.state)) api.stop();
  else api.start();
});

$("embed-snippet").textContent =
  `<script src="${location.origin}/palisade-attest.js" async></script>`;

setInterval(renderCountdown, 200);

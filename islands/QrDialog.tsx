import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";

export interface QrDialogProps {
  /**
   * The QR page with the configuration's choices in its query: a page without
   * script, and with `format=svg` added the image alone.
   */
  href: string;
  /** The peer's name, for the dialog's title and the image's text alternative. */
  name: string;
}

type Qr = { state: "idle" | "loading" } | { state: "ready"; src: string } | {
  state: "error";
  message: string;
};

/**
 * "Show QR code": a link to the QR page until hydrated, then a button that
 * opens a modal <dialog> (focus moves into it, Escape closes it) and loads
 * the image on demand, since each QR is an audited export of the private key.
 */
export default function QrDialog({ href, name }: QrDialogProps) {
  const ready = useSignal(false);
  const qr = useSignal<Qr>({ state: "idle" });
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ready.value = true;
  }, []);

  const open = async () => {
    dialog.current?.showModal();
    if (qr.value.state === "ready" || qr.value.state === "loading") return;
    qr.value = { state: "loading" };
    try {
      const svgHref = `${href}${href.includes("?") ? "&" : "?"}format=svg`;
      const res = await fetch(svgHref, { credentials: "same-origin" });
      const text = await res.text();
      qr.value = res.ok
        ? { state: "ready", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}` }
        : { state: "error", message: text || `The server answered ${res.status}` };
    } catch {
      qr.value = { state: "error", message: "The server could not be reached; try again" };
    }
  };

  const q = qr.value;
  return (
    <>
      {ready.value
        ? <button type="button" onClick={open} aria-haspopup="dialog">Show QR code</button>
        : <a href={href} class="button-link">Show QR code</a>}
      <dialog ref={dialog} class="qr-dialog" aria-labelledby="qr-title">
        <h2 id="qr-title">Configuration of {name}</h2>
        <p class="help">
          Scan it with the WireGuard app. It holds the peer's private key: show it only to its
          owner.
        </p>
        <div class="qr-frame" aria-live="polite">
          {q.state === "ready" && (
            <img src={q.src} alt={`QR code of the configuration of ${name}`} />
          )}
          {q.state === "loading" && <p class="muted">Generating…</p>}
          {q.state === "error" && <p class="form-error" role="alert">{q.message}</p>}
        </div>
        <form method="dialog" class="row">
          <button type="submit" class="primary">Close</button>
        </form>
      </dialog>
    </>
  );
}

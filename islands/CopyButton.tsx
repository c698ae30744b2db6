import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";

export interface CopyButtonProps {
  /** Id of the element whose text is copied (a `<pre>` the server rendered). */
  target: string;
  label: string;
}

/** Selects the element's text, so Ctrl+C (or the context menu) copies it. */
function select(el: Element): void {
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/**
 * A copy button for text the page already shows: nothing until hydrated
 * (without script the text is there to select), then a button that puts the
 * text on the clipboard. Where the clipboard is not offered (a page served
 * over plain http from another host, a denied permission) it selects the
 * text instead and says so.
 */
export default function CopyButton({ target, label }: CopyButtonProps) {
  const ready = useSignal(false);
  const said = useSignal("");
  useEffect(() => {
    ready.value = true;
  }, []);
  if (!ready.value) return null;

  const copy = async () => {
    const el = document.getElementById(target);
    if (!el) return;
    try {
      await navigator.clipboard.writeText(el.textContent ?? "");
      said.value = "Copied.";
    } catch {
      select(el);
      said.value = "Selected: press Ctrl+C to copy.";
    }
  };
  return (
    <>
      <button type="button" onClick={copy} aria-controls={target}>{label}</button>
      <span role="status" class="help">{said.value}</span>
    </>
  );
}

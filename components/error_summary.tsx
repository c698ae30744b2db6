/** A refusal that belongs to no single field, announced to screen readers; nothing when there is none. */
export function ErrorSummary({ message, id }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return <p id={id} class="form-error" role="alert">{message}</p>;
}

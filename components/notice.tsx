/** The one-line result of the last action, shown after its redirect (PRG). */
export function Notice({ message }: { message?: string | null }) {
  if (!message) return null;
  return <p class="notice" role="status">{message}</p>;
}

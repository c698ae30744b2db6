/** The peers list's search, interface and status filters, as query parameters. */
export interface PeerFilter {
  q?: string;
  interface_id?: string;
  status?: string;
}

/** True when any filter is set. */
export function isFiltered(filter: PeerFilter): boolean {
  return !!(filter.q || filter.interface_id || filter.status);
}

/**
 * The filters form. The search field also filters the rows already shown as
 * one types (the table island listens to it, by its id `peer-q`).
 */
export function PeerFilters(
  { filter, interfaces }: { filter: PeerFilter; interfaces: { id: string; name: string }[] },
) {
  return (
    <form method="get" class="filters" role="search" aria-label="Filter peers">
      <label>
        Search
        <input
          id="peer-q"
          name="q"
          type="search"
          value={filter.q ?? ""}
          placeholder="Name, address or key"
          autocomplete="off"
          aria-describedby="peer-q-help"
        />
      </label>
      <label>
        Interface
        <select name="interface_id">
          <option value="">All interfaces</option>
          {interfaces.map((i) => (
            <option value={i.id} selected={i.id === filter.interface_id}>{i.name}</option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select name="status">
          <option value="">Any status</option>
          {["enabled", "disabled", "revoked"].map((s) => (
            <option value={s} selected={s === filter.status}>{s}</option>
          ))}
        </select>
      </label>
      <button type="submit">Filter</button>
      {isFiltered(filter) && <a href="/peers" class="button-link">Clear</a>}
      <p id="peer-q-help" class="help wide">
        Typing filters the rows below at once; Filter searches every peer on the server.
      </p>
    </form>
  );
}

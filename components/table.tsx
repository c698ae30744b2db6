import type { ComponentChildren } from "preact";

/** A column heading; `num` right-aligns the column's figures. */
export interface Column {
  label: ComponentChildren;
  num?: boolean;
}

/**
 * A table that scrolls sideways on its own on a narrow screen (the page
 * never does), with its column headings; `children` are the rows.
 */
export function Table(
  { class: cls, columns, children }: {
    class?: string;
    /** Headings; a false entry leaves its column out (one only some roles see). */
    columns: (Column | false)[];
    children: ComponentChildren;
  },
) {
  return (
    <div class="table-wrap">
      <table class={cls}>
        <thead>
          <tr>
            {columns.map((c, i) =>
              c && <th key={i} scope="col" class={c.num ? "num" : undefined}>{c.label}</th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

import type { ComponentChildren } from "preact";

/** A column heading; `num` right-aligns the column's figures. */
export interface Column {
  label: ComponentChildren;
  num?: boolean;
}

/**
 * A table that scrolls sideways on its own on a narrow screen (the page
 * never does), with its column headings; `children` are the rows. The
 * wrapper takes keyboard focus so that a keyboard can scroll it too (WCAG
 * 2.1.1); `label` names it as a region for screen readers.
 */
export function Table(
  { class: cls, columns, children, label }: {
    class?: string;
    /** What the table lists, e.g. "Records of example.org". */
    label?: string;
    /** Headings; a false entry leaves its column out (one only some roles see). */
    columns: (Column | false)[];
    children: ComponentChildren;
  },
) {
  return (
    <div class="table-wrap" tabIndex={0} role={label ? "region" : undefined} aria-label={label}>
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

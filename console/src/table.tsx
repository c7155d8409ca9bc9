/**
 * The console's one table: a caption, columns that each say how to show a row, amounts right-aligned
 * in tabular figures. It scrolls inside its own box, never widening the page: the box is a named,
 * focusable region (a keyboard can scroll it) that shows a shadow on the side with more to see.
 * A `stack` table becomes one card per row on a narrow screen, each value under its column's name,
 * so that its key columns (and a form in a row) are never left beyond the edge.
 *
 * The ARIA roles repeat the elements' own: a browser may drop a table's semantics once its rows are
 * laid out as blocks, and the cards must still read as a table.
 */
import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** An amount or a count: right-aligned, tabular figures, so that digits line up. */
  numeric?: boolean;
}

export function Table<Row>(props: {
  caption: string;
  columns: readonly (Column<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  stack?: boolean;
}) {
  const columns = props.columns.filter((column): column is Column<Row> => column !== false);
  return (
    <div class={props.stack ? 'table-box stack' : 'table-box'} role="region" aria-label={props.caption} tabIndex={0}>
      <table role="table">
        <caption>{props.caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.header} role="columnheader" scope="col" class={column.numeric ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} role="row">
              {columns.map((column) => (
                <td key={column.header} role="cell" data-label={column.header} class={column.numeric ? 'num' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

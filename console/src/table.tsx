/**
 * The console's one table: a caption, columns that each say how to show a row, amounts right-aligned
 * in tabular figures. It scrolls inside its own box (a keyboard can scroll it: the box is a named,
 * focusable region), never widening the page.
 */
import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** An amount or a count: right-aligned, tabular figures, so that digits line up. */
  numeric?: boolean;
}

export function Table<Row>(props: { caption: string; columns: readonly (Column<Row> | false)[]; rows: readonly Row[]; rowKey: (row: Row) => string }) {
  const columns = props.columns.filter((column): column is Column<Row> => column !== false);
  return (
    <div class="table-box" role="region" aria-label={props.caption} tabIndex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.numeric ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} class={column.numeric ? 'num' : undefined}>
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

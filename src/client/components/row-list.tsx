/**
 * A short list of rows, each with its text on the left and a time on the right: the panel's latest
 * alarms and the device drawer's. It stands where antd's List stood (deprecated in antd 6; its
 * successor Listy is a virtual list, made for long lists of fixed-height rows).
 */
import type { ReactNode } from 'react';

import './row-list.css';

interface RowListProps<T extends { id: number }> {
  items: readonly T[];
  /** The row's text, and what its right side shows. */
  render: (item: T) => { main: ReactNode; side: ReactNode };
}

export function RowList<T extends { id: number }>({ items, render }: RowListProps<T>) {
  return (
    <ul className="row-list">
      {items.map((item) => {
        const { main, side } = render(item);
        return (
          <li key={item.id}>
            <span>{main}</span>
            <span className="row-list-side">{side}</span>
          </li>
        );
      })}
    </ul>
  );
}

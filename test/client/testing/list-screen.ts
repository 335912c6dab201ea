/**
 * Steps the list-screen tests share: open a screen, press a row's action, fill and save a dialog.
 * Rows and buttons are found by their text, not by accessible name: computing names over a whole
 * antd page is slow enough to time out on a busy machine.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderApp } from './render';

// Whole-app renders with antd take seconds when the machine is shared.
configure({ asyncUtilTimeout: 10_000 });

export const user = userEvent.setup();

/** antd puts a space between the two characters of a Chinese button label. */
export const button = (name: string) => new RegExp(name.split('').join('\\s*'));

/** The table row showing `text`. */
export async function findRow(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, { selector: 'td, td *' });
  return cell.closest('tr') as HTMLElement;
}

/** Render the signed-in app at `path` and wait for the row showing `rowText`. */
export async function openScreen(path: string, rowText: string) {
  const view = await renderApp({ path, signedIn: true });
  await findRow(rowText);
  return view;
}

/** The actions under a row's 更多, opened (none when the row has no 更多). */
async function moreActions(row: HTMLElement): Promise<HTMLElement | null> {
  const more = within(row).queryByRole('button', { name: button('更多') });
  if (!more) return null;
  if (more.getAttribute('aria-expanded') !== 'true') await user.click(more);
  return waitFor(() => document.getElementById(more.getAttribute('aria-controls') as string) as HTMLElement);
}

/** A row's action by its label, in the row or under its 更多 (opened on the way). */
export async function findRowAction(rowText: string, action: string): Promise<HTMLElement> {
  return rowButton(await findRow(rowText), action);
}

/** The action of this row by its label, in the row or under its 更多 (opened on the way). */
export async function rowButton(row: HTMLElement, action: string): Promise<HTMLElement> {
  const inline = within(row).queryByRole('button', { name: button(action) });
  if (inline) return inline;
  const panel = await moreActions(row);
  if (!panel) throw new Error(`the row offers no ${action}`);
  return within(panel).getByRole('button', { name: button(action) });
}

/** Every action a row offers, in the row and under its 更多. */
export async function rowActionLabels(rowText: string): Promise<string[]> {
  const row = await findRow(rowText);
  const panel = await moreActions(row);
  const cell = row.lastElementChild as HTMLElement;
  return [...within(cell).queryAllByRole('button'), ...(panel ? within(panel).queryAllByRole('button') : [])]
    .map((control) => (control.textContent ?? '').replace(/\s+/g, ''))
    .filter((label) => label !== '更多');
}

export async function rowAction(rowText: string, action: string) {
  await user.click(await findRowAction(rowText, action));
}

export async function openDialog(trigger: () => Promise<void>) {
  await trigger();
  return screen.findByRole('dialog');
}

/** A toolbar or form button outside any dialog, by its label. */
export const pageButton = (label: string) => screen.getByText(button(label), { selector: 'button span' }).closest('button') as HTMLElement;

export const openAdd = () => openDialog(() => user.click(pageButton('新增')));

export const search = () => user.click(pageButton('查询'));

/** A filter of the search form by its label (a sortable column's header carries the same label). */
export const filterField = (label: string) => within(document.querySelector('form.ant-form-inline') as HTMLElement).getByLabelText(label);

export async function fill(dialog: HTMLElement, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const input = within(dialog).getByLabelText(label);
    await user.clear(input);
    await user.type(input, value);
  }
}

/** The width the table's colgroup gives the column headed `title` (`'88px'`), or undefined when it has none. */
export function columnWidth(title: string): string | undefined {
  const header = screen.getByText(title, { selector: 'th, th *' }).closest('th') as HTMLElement;
  const index = Array.from(header.parentElement?.children ?? []).indexOf(header);
  return (document.querySelectorAll('.ant-table-content colgroup col, .ant-table-body colgroup col')[index] as HTMLElement | undefined)?.style.width;
}

export const saveDialog = (dialog: HTMLElement) => user.click(within(dialog).getByRole('button', { name: button('保存') }));

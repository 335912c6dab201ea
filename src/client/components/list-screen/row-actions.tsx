/**
 * A row's actions on one line, as consoles show them: the first two as links, the rest under 更多.
 * The block reads each row's controls as elements — `<Permitted>` (its grant checked here), fragments
 * and plain controls — so a screen keeps writing its actions as before, and a row or a whole page
 * with nothing the role may do shows no actions (and the table no 操作 column).
 */
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex, Space, theme } from 'antd';
import { Children, Fragment, isValidElement, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';

import type { GrantLookup } from './menu-grants';
import { Permitted, type PermittedProps } from './permitted';

/** Links shown in the row before 更多: two, so a row stays one line at 1366 wide. */
const INLINE_ACTIONS = 2;
/** Room for one link of up to four characters (or 更多 and its arrow) and the gap after it. */
const CONTROL_WIDTH = 72;
const CELL_PADDING = 16;
/** The trigger of a confirmation (Popconfirm) while it is open: the 更多 panel stays open under it. */
const OPEN_CONFIRM = '.ant-popconfirm-open, .ant-popover-open';

/** The controls `node` shows to a role with these grants, one element per control. */
export function actionItems(node: ReactNode, granted: GrantLookup): ReactElement[] {
  const items: ReactElement[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement<{ children?: ReactNode }>(child)) return;
    if (child.type === Fragment) {
      items.push(...actionItems(child.props.children, granted));
    } else if (child.type === Permitted) {
      const { view, resource, children } = child.props as PermittedProps;
      if (granted(view, resource)) items.push(...actionItems(children, granted));
    } else {
      items.push(child);
    }
  });
  return items;
}

/**
 * The 操作 column's width for rows offering at most `most` controls: a table with ellipsis columns
 * lays out fixed, and a column left to its share would push the one-line actions over its neighbours.
 */
export function actionColumnWidth(most: number): number {
  return Math.min(most, INLINE_ACTIONS + 1) * CONTROL_WIDTH + CELL_PADDING;
}

function MoreActions({ items }: { items: ReactElement[] }) {
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const { token } = theme.useToken();
  // A pressed action closes the panel, unless it opened a confirmation anchored in it; pressing that
  // confirmation's buttons (a portal of the panel's tree) closes it afterwards.
  const afterPress = () =>
    setTimeout(() => {
      if (!panel.current?.querySelector(OPEN_CONFIRM)) setOpen(false);
    });
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      popupRender={() => (
        <Flex
          ref={panel}
          id={panelId}
          vertical
          align="start"
          role="menu"
          onClick={afterPress}
          style={{ background: token.colorBgElevated, borderRadius: token.borderRadiusLG, boxShadow: token.boxShadowSecondary, padding: token.paddingXXS }}
        >
          {items.map((item, index) => (
            <Fragment key={index}>{item}</Fragment>
          ))}
        </Flex>
      )}
    >
      <Button type="link" size="small" aria-haspopup="menu" aria-expanded={open} aria-controls={panelId}>
        更多
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}

export function RowActions({ items }: { items: ReactElement[] }) {
  const inline = items.slice(0, INLINE_ACTIONS);
  const more = items.slice(inline.length);
  return (
    <Space size={4} style={{ whiteSpace: 'nowrap' }}>
      {inline.map((item, index) => (
        <Fragment key={index}>{item}</Fragment>
      ))}
      {more.length > 0 && <MoreActions items={more} />}
    </Space>
  );
}

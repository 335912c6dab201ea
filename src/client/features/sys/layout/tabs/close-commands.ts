/** The tab bar's close commands (关闭, 关闭其他, 关闭右侧, 关闭全部): which tabs go, and where to go next. */
export type CloseCommand = 'close' | 'closeOthers' | 'closeRight' | 'closeAll';

/**
 * The tabs a close command on `target` removes from `order` (the fixed tab first), and where to
 * go when the active tab is among them.
 */
export function planClose(command: CloseCommand, target: string, order: string[], active: string | undefined) {
  const [fixed, ...closable] = order;
  const index = order.indexOf(target);
  const targets = {
    close: target === fixed ? [] : [target],
    closeOthers: closable.filter((key) => key !== target),
    closeRight: order.slice(index + 1),
    closeAll: closable,
  }[command];
  if (active === undefined || !targets.includes(active)) return { targets, next: undefined };
  if (command === 'close') {
    const remaining = order.filter((key) => !targets.includes(key));
    // The neighbour on the right takes the closed tab's place, else the one on its left.
    const next =
      order.slice(index + 1).find((key) => remaining.includes(key)) ??
      order
        .slice(0, index)
        .reverse()
        .find((key) => remaining.includes(key));
    return { targets, next };
  }
  return { targets, next: command === 'closeAll' ? fixed : target };
}

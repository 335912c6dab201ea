/** For a column's `onCell`: times and short names read best on one line; long text wraps instead. */
export const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });

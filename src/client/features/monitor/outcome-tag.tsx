/** An outcome as a coloured tag; its text is the menu dictionary's label (data, not code). */
import { Tag } from 'antd';

import { useMenuDictContext } from '../../components/list-screen';

interface OutcomeTagProps {
  /** The dictionary field, e.g. 'outcome'. */
  field: string;
  value: string;
  colors: Readonly<Record<string, string>>;
}

export function OutcomeTag({ field, value, colors }: OutcomeTagProps) {
  const dict = useMenuDictContext();
  return <Tag color={colors[value] ?? 'default'}>{dict.labelOf(field, value)}</Tag>;
}

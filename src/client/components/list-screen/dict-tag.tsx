/** A dictionary value as a coloured tag (e.g. an outcome); its text is the menu dictionary's label. */
import { Tag } from 'antd';

import { useMenuDictContext } from './menu-dict';

interface DictTagProps {
  /** The dictionary field, e.g. 'outcome'. */
  field: string;
  value: string;
  /** antd tag colours by value; a value without one is drawn in the default colour. */
  colors: Readonly<Record<string, string>>;
}

export function DictTag({ field, value, colors }: DictTagProps) {
  const dict = useMenuDictContext();
  return <Tag color={colors[value] ?? 'default'}>{dict.labelOf(field, value)}</Tag>;
}

/**
 * A screen's picker as a FieldConfig `control`: the picker bound to the screen whose own endpoint
 * it reads (picker-sources.ts), and to any fixed props. Made once per screen, at module level: a new
 * component on each render would remount the field.
 */
import type { ComponentType } from 'react';

import type { CustomControlProps } from './list-screen';

export function pickerControl<P extends CustomControlProps & { view: string }>(
  Picker: ComponentType<P>,
  name: string,
  fixed: Omit<P, keyof CustomControlProps>,
): ComponentType<CustomControlProps> {
  const Control = (props: CustomControlProps) => <Picker {...({ ...props, ...fixed } as P)} />;
  Control.displayName = `${name}(${fixed.view})`;
  return Control;
}

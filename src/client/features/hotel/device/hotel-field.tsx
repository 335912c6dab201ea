/**
 * The device form's 所属酒店: a device with a location belongs to that location's hotel (the server
 * derives it), so the picker is for hotel-wide equipment without one (a gateway, a lobby screen)
 * and is switched off while a location is chosen.
 */
import { Form, type FormRule } from 'antd';

import type { CustomControlProps, FieldConfig, FormValues } from '../../../components/list-screen';
import { HotelSelect } from '../../../components/org-tree';
import { DEVICE_VIEW } from './config';

const located = (locationId: unknown): boolean => locationId !== undefined && locationId !== null;

function DeviceHotelSelect({ id, value, onChange }: CustomControlProps) {
  const locationId: unknown = Form.useWatch('locationId', Form.useFormInstance());
  if (located(locationId)) return <HotelSelect view={DEVICE_VIEW} id={id} value={null} onChange={onChange} disabled placeholder="随所选位置的酒店" />;
  return <HotelSelect view={DEVICE_VIEW} id={id} value={value} onChange={onChange} />;
}

const hotelWithoutLocation: FormRule = ({ getFieldValue }) => ({
  validator: (_rule, value: unknown) =>
    located(getFieldValue('locationId')) || (value !== undefined && value !== null) ? Promise.resolve() : Promise.reject(new Error('未选位置时请选择所属酒店')),
});

export const deviceHotelField: FieldConfig = {
  name: 'orgId',
  label: '所属酒店',
  kind: 'select',
  control: DeviceHotelSelect,
  extra: '不选位置的全酒店设备（如网关）选它所属的酒店；选了位置则随位置所在酒店',
  rules: [hotelWithoutLocation],
  dependencies: ['locationId'],
};

/** A located device's hotel is its location's: the form's own pick is not sent then (null: the server derives it). */
export function withHotelOfLocation<B>(values: FormValues): B {
  if (!('orgId' in values)) return values as B;
  return { ...values, orgId: located(values.locationId) ? null : (values.orgId ?? null) } as B;
}

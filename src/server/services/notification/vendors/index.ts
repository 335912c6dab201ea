/** The vendor of each channel type. */
import type { ChannelType } from '../../../../contract/monitor/channel';
import { dingtalk } from './dingtalk';
import { email } from './email';
import { feishu } from './feishu';
import { webhook } from './webhook';
import { wecom } from './wecom';
import type { Vendor } from './vendor';

const VENDORS: Record<ChannelType, Vendor> = { dingtalk, wecom, feishu, webhook, email };

export const vendorOf = (type: string): Vendor | undefined => (Object.hasOwn(VENDORS, type) ? VENDORS[type as ChannelType] : undefined);

export type { Delivery, Outgoing, RateWindow, Vendor } from './vendor';

/** A unit's kind as a coloured tag: 集团, 区域, 酒店, 部门. */
import { Tag } from 'antd';

import { ORG_KIND_LABELS, type OrgKind } from '../../../contract/constants';

const KIND_COLOR: Record<OrgKind, string> = { group: 'purple', region: 'blue', hotel: 'green', department: 'default' };

export function OrgKindTag({ kind }: { kind: string }) {
  return <Tag color={KIND_COLOR[kind as OrgKind] ?? 'default'}>{ORG_KIND_LABELS[kind as OrgKind] ?? kind}</Tag>;
}

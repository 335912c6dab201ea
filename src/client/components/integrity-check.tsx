/**
 * 校验完整性 (the integrity check of an audit log): asks the server to walk the log's hash chain and
 * shows what it found, the first record that was edited or removed in the database, or that every
 * record is intact. The operation log and the login log offer it in their toolbars.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Modal } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../contract';

/** Both logs answer the same report (the contract's one shape for it). */
type IntegrityReport = DataOf<'/monitor/operation/integrity'>;

/** What a lazy integrity query hook offers: a trigger answering the report, or a refusal. */
type LazyIntegrityHook = () => readonly [() => { unwrap(): Promise<IntegrityReport> }, { isFetching: boolean }, ...unknown[]];

function Outcome({ result }: { result: IntegrityReport }) {
  if (result.firstBroken) {
    return (
      <Alert
        type="error"
        showIcon
        title="发现记录被篡改或删除"
        description={`第一条异常记录：编号 ${result.firstBroken.id}（${result.firstBroken.reason}）。已校验 ${result.checked} 条记录。`}
      />
    );
  }
  const span = result.checked > 0 ? `（编号 ${result.anchorId + 1} 至 ${result.headId}）` : '';
  return <Alert type="success" showIcon title="校验通过" description={`已校验 ${result.checked} 条记录${span}，未发现篡改。`} />;
}

export function IntegrityCheckButton({ useCheck }: { useCheck: LazyIntegrityHook }) {
  const [check, { isFetching }] = useCheck();
  const [result, setResult] = useState<IntegrityReport | null>(null);
  const run = async () => {
    // A refusal has already been toasted by the base query.
    const answer = await check()
      .unwrap()
      .catch(() => null);
    if (answer) setResult(answer);
  };
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} loading={isFetching} onClick={run}>
        校验完整性
      </Button>
      <Modal open={result !== null} title="日志完整性校验" footer={null} onCancel={() => setResult(null)}>
        {result && <Outcome result={result} />}
      </Modal>
    </>
  );
}

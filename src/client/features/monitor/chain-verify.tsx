/**
 * 校验完整性: asks the server to walk a log's hash chain and shows what it found, the first record
 * that was edited or removed in the database, or that every record is intact.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Modal } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../contract';

type Verification = DataOf<'/monitor/operation/integrity'>;

/** What a lazy verify query hook offers: a trigger answering the verification, or a refusal. */
type LazyVerifyHook = () => readonly [() => { unwrap(): Promise<Verification> }, { isFetching: boolean }, ...unknown[]];

function Outcome({ result }: { result: Verification }) {
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

export function ChainVerifyButton({ useVerify }: { useVerify: LazyVerifyHook }) {
  const [verify, { isFetching }] = useVerify();
  const [result, setResult] = useState<Verification | null>(null);
  const run = async () => {
    // A refusal has already been toasted by the base query.
    const answer = await verify()
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

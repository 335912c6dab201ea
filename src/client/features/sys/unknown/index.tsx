/** The not-found screen (sys/unknown): unknown views and unmatched paths inside the shell. */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

export default function Unknown() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="您访问的页面不存在，或您没有访问它的权限。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}

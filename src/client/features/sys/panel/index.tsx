/**
 * The dashboard (sys/panel): live counts and four charts, read from the server on every visit
 * (also when its tab comes back into view). A count opens the list it counts, filtered to it (未清除告警
 * opens 告警管理 at 活动 alarms) when the user has that screen.
 */
import { Button, Card, Col, Result, Row, Statistic } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';

import { PageSpin } from '../../../components/page-spin';
import { RelativeTime } from '../../../components/relative-time';
import { RowList } from '../../../components/row-list';
import { selectMenuEntry, type SessionRoot } from '../../../lib/session';
import { useRefetchOnReturn } from '../../../hooks/use-screen-activity';
import { usePanelQuery } from './api';

const PanelCharts = lazy(() => import(/* webpackChunkName: "view-sys-panel-charts" */ './charts'));

interface FigureProps {
  title: string;
  value: number;
  suffix?: ReactNode;
  alert?: boolean;
  /** The list the count is of (a menu element) and the filters that list it, e.g. `?status=active`. */
  list: string;
  query?: string;
}

function Figure({ title, value, suffix, alert = false, list, query = '' }: FigureProps) {
  const path = useSelector((state: SessionRoot) => selectMenuEntry(state, list)?.path);
  const card = (
    <Card style={{ height: '100%' }} hoverable={path !== undefined}>
      <Statistic title={title} value={value} suffix={suffix} styles={alert && value > 0 ? { content: { color: '#cf1322' } } : undefined} />
    </Card>
  );
  return (
    <Col xs={12} lg={8}>
      {path ? (
        <Link to={`${path}${query}`} aria-label={`${title}：查看列表`} style={{ display: 'block', height: '100%' }}>
          {card}
        </Link>
      ) : (
        card
      )}
    </Col>
  );
}

export default function Panel() {
  const { data, isLoading, isError, refetch } = usePanelQuery(undefined, { refetchOnMountOrArgChange: true });
  useRefetchOnReturn(refetch);

  if (isLoading) return <PageSpin />;
  if (isError || !data) {
    return (
      <Result
        status="warning"
        title="控制台数据加载失败"
        extra={
          <Button type="primary" onClick={() => void refetch()}>
            重新加载
          </Button>
        }
      />
    );
  }

  return (
    <>
      <Row gutter={[16, 16]}>
        <Figure title="启用用户 / 用户总数" value={data.usersEnabled} suffix={`/ ${data.users}`} list="sys/user" />
        <Figure title="角色" value={data.roles} list="sys/role" />
        <Figure title="在线设备 / 设备总数" value={data.devicesOnline} suffix={`/ ${data.devices}`} list="hotel/device" query="?online=1" />
        <Figure title="离线设备" value={data.devicesOffline} alert list="hotel/device" query="?online=0" />
        <Figure title="启用的定时任务" value={data.schedulesEnabled} list="sys/schedule" query="?state=1" />
        <Figure title="上次执行失败的定时任务" value={data.schedulesFailedLastRun} alert list="sys/schedule" />
        <Figure title="在线会话" value={data.activeSessions} list="monitor/online" />
        <Figure title="未清除告警" value={data.alarmsActive} alert list="hotel/alarm" query="?status=active" />
      </Row>
      {data.latestAlarms.length > 0 && (
        <Card title="最新告警" size="small" style={{ marginTop: 16 }}>
          <RowList
            items={data.latestAlarms}
            render={(alarm) => ({
              main: (
                <>
                  {alarm.deviceName}（{alarm.deviceSn}）：{alarm.message}
                  {alarm.count > 1 ? `（${alarm.count} 次）` : ''}
                </>
              ),
              side: <RelativeTime value={alarm.lastAt} />,
            })}
          />
        </Card>
      )}
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Suspense
          fallback={
            <Col span={24}>
              <PageSpin />
            </Col>
          }
        >
          <PanelCharts data={data} />
        </Suspense>
      </Row>
    </>
  );
}

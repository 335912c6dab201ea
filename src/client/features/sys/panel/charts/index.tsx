/**
 * The panel's four charts. A lazy chunk of its own (with echarts, the largest library of the app):
 * the counts show at once, the charts when the library has arrived.
 */
import { Card, Col, Empty } from 'antd';
import { useMemo, type ReactNode } from 'react';

import type { DataOf } from '../../../../../contract';
import { Chart } from './chart';
import { onlineOption, runsOption, signInsOption, summaries, typesOption } from './options';

/** Less than two samples, or none with a device, draw no line: the card says so instead. */
const noHistory = (history: DataOf<'/sys/panel/inquire'>['onlineHistory']) => history.length < 2 || history.every((sample) => sample.total === 0);
const EMPTY_STYLE = { height: 228, paddingTop: 48 };

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Col xs={24} xl={12}>
      <Card title={title} size="small">
        {children}
      </Card>
    </Col>
  );
}

export default function PanelCharts({ data }: { data: DataOf<'/sys/panel/inquire'> }) {
  const options = useMemo(
    () => ({
      online: onlineOption(data.onlineHistory),
      signIns: signInsOption(data.signInsPerDay),
      runs: runsOption(data.scheduleRunsPerDay),
      types: typesOption(data.devicesByType),
    }),
    [data],
  );
  return (
    <>
      <ChartCard title="近 24 小时在线设备">
        {noHistory(data.onlineHistory) ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" style={EMPTY_STYLE} />
        ) : (
          <Chart option={options.online} summary={summaries.online(data)} />
        )}
      </ChartCard>
      <ChartCard title={`近 ${data.signInsPerDay.length} 天登录次数`}>
        <Chart option={options.signIns} summary={summaries.signIns(data.signInsPerDay)} />
      </ChartCard>
      <ChartCard title={`近 ${data.scheduleRunsPerDay.length} 天定时任务执行`}>
        <Chart option={options.runs} summary={summaries.runs(data.scheduleRunsPerDay)} />
      </ChartCard>
      <ChartCard title="设备类型分布">
        {data.devicesByType.length > 0 ? (
          <Chart option={options.types} summary={summaries.types(data.devicesByType)} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无设备" style={EMPTY_STYLE} />
        )}
      </ChartCard>
    </>
  );
}

/**
 * The live console (the lazy chunk `live`, loaded by the shell's header): it runs the event stream
 * and shows, in the header, whether the console is live (实时 / 重连中, with the alarm-sound switch
 * under it) and the open alarms' badge, which announces a new severe alarm (docs/client.md, Live
 * console).
 */
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, notification, Popover, Switch } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';

import type { DataOf } from '../../../../../contract';
import { ALARM_SEVERITIES, alarmSeverityLabel } from '../../../../../contract/constants';
import { useGranted } from '../../../../components/list-screen/menu-grants';
import { ALARM_VIEW } from '../../../../config/views';
import { selectMenuEntry, type SessionRoot } from '../../../../lib/session';
import { useOpenAlarmsQuery } from './api';
import { selectLiveStatus, type LiveState } from './slice';
import { playAlarmTone, setSoundWanted, soundWanted } from './sound';
import { useLiveStream } from './use-live-stream';
import './live.css';

type Alarm = DataOf<'/hotel/alarm/inquire'>['records'][number];

/** The newest open alarms and their total: enough to tell what is new since the last answer. */
const OPEN_ALARMS = { current: 1, size: 10, params: { status: 'active' as const }, sort: { field: 'startedAt' as const, order: 'descend' as const } };
/** The severities announced as they are raised: the two highest. */
const ANNOUNCED: readonly string[] = ALARM_SEVERITIES.slice(0, 2);
/** One notification at a time: a newer one replaces it. */
const NOTICE_KEY = 'live-alarm';

const STATUS_TEXT: Record<LiveState['status'], string> = { off: '连接中', connecting: '连接中', live: '实时', reconnecting: '重连中' };

function SoundSwitch() {
  const [on, setOn] = useState(soundWanted);
  return (
    <label className="shell-live-sound">
      <Switch
        size="small"
        checked={on}
        onChange={(checked) => {
          setSoundWanted(checked);
          setOn(checked);
        }}
      />
      新告警提示音
    </label>
  );
}

function LiveIndicator() {
  const status = useSelector(selectLiveStatus);
  const live = status === 'live';
  const text = STATUS_TEXT[status];
  const content = (
    <div className="shell-live-panel">
      <p>{live ? '实时：设备状态、告警和控制台数字随变化自动更新。' : '正在连接实时更新，期间页面数据可能不是最新。'}</p>
      <SoundSwitch />
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <button type="button" className="shell-live" aria-label={`实时更新：${text}`} data-status={status}>
        <Badge status={live ? 'success' : 'warning'} text={text} />
      </button>
    </Popover>
  );
}

/** Announces open alarms of a high severity that were not in the previous answer. */
function useNewAlarmNotices(alarms: Alarm[] | undefined, announce: (fresh: Alarm[]) => void): void {
  const newestSeen = useRef<number | null>(null);
  useEffect(() => {
    if (!alarms) return;
    const newest = alarms.reduce((max, alarm) => Math.max(max, alarm.id), 0);
    const seen = newestSeen.current;
    newestSeen.current = Math.max(seen ?? 0, newest);
    // The first answer is what was open already: nothing new in it.
    if (seen === null) return;
    const fresh = alarms.filter((alarm) => alarm.id > seen && ANNOUNCED.includes(alarm.severity));
    if (fresh.length > 0) announce(fresh);
  }, [alarms, announce]);
}

function AlarmBell() {
  const granted = useGranted(ALARM_VIEW, 'api_inquire');
  const path = useSelector((state: SessionRoot) => selectMenuEntry(state, ALARM_VIEW)?.path);
  const navigate = useNavigate();
  const { data } = useOpenAlarmsQuery(OPEN_ALARMS, { skip: !granted });
  const [notices, holder] = notification.useNotification({ maxCount: 3 });
  const showAlarms = useCallback(() => void (path && navigate(path)), [path, navigate]);
  const announce = useCallback(
    (fresh: Alarm[]) => {
      const [first] = fresh;
      notices.warning({
        key: NOTICE_KEY,
        title: fresh.length === 1 ? `${alarmSeverityLabel(first.severity)}告警：${first.deviceName}` : `${fresh.length} 条新的${ANNOUNCED.map(alarmSeverityLabel).join('或')}告警`,
        description: fresh.length === 1 ? `${first.deviceName}（${first.deviceSn}）：${first.message}` : fresh.map((alarm) => alarm.deviceName).join('、'),
        actions: (
          <Button
            type="link"
            size="small"
            onClick={() => {
              notices.destroy(NOTICE_KEY);
              showAlarms();
            }}
          >
            查看告警
          </Button>
        ),
      });
      if (soundWanted()) playAlarmTone();
    },
    [notices, showAlarms],
  );
  useNewAlarmNotices(data?.records, announce);
  if (!granted) return null;
  const total = data?.total ?? 0;
  return (
    <>
      {holder}
      <Badge count={total} size="small" overflowCount={999}>
        <Button type="text" icon={<BellOutlined />} aria-label={`未清除告警 ${total} 条`} onClick={showAlarms} />
      </Badge>
    </>
  );
}

export default function LiveConsole() {
  useLiveStream();
  return (
    <>
      <LiveIndicator />
      <AlarmBell />
    </>
  );
}

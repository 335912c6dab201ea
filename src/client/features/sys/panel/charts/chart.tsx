/**
 * One echarts chart in a div that follows its size. echarts cannot lay out a chart in a box without
 * a size (a tab's pane while hidden, say), so the chart is created once its box has one.
 * `summary` says in words what the chart shows, for screen readers.
 */
import { useEffect, useRef } from 'react';

import { init, type ChartOption } from './echarts';

interface ChartProps {
  option: ChartOption;
  summary: string;
  height?: number;
}

export function Chart({ option, summary, height = 260 }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  const drawn = useRef(option);

  useEffect(() => {
    const container = element.current as HTMLDivElement;
    const draw = () => {
      if (chart.current) {
        chart.current.resize();
      } else if (container.clientWidth > 0 && container.clientHeight > 0) {
        chart.current = init(container, undefined, { renderer: 'svg' });
        chart.current.setOption(drawn.current, true);
      }
    };
    const observer = new ResizeObserver(draw);
    observer.observe(container);
    draw();
    return () => {
      observer.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (drawn.current === option) return;
    drawn.current = option;
    chart.current?.setOption(option, true);
  }, [option]);

  return <div ref={element} role="img" aria-label={summary} style={{ height }} />;
}

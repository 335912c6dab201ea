/**
 * The screens of the open tabs, kept mounted and hidden while another tab is on show, so each keeps
 * its filters, page, dialogs and scroll position. Each pane scrolls on its own; a hidden element
 * may lose its scroll offset, so the pane puts back the one it had when it is shown again.
 */
import { Suspense, useLayoutEffect, useRef, type ReactNode } from 'react';

import { PageSpin } from '../../../../components/page-spin';
import { ScreenActivityContext } from '../../../../hooks/use-screen-activity';

interface PaneProps {
  active: boolean;
  children: ReactNode;
}

export function Pane({ active, children }: PaneProps) {
  const element = useRef<HTMLDivElement>(null);
  const scrollTop = useRef(0);
  useLayoutEffect(() => {
    if (active && element.current) element.current.scrollTop = scrollTop.current;
  }, [active]);
  return (
    <div
      ref={element}
      className="shell-pane"
      hidden={!active}
      onScroll={(event) => {
        if (active) scrollTop.current = event.currentTarget.scrollTop;
      }}
    >
      <ScreenActivityContext.Provider value={active}>
        <div className="shell-content">
          {/* A boundary per pane: a screen still loading shows the spinner in its own pane only. */}
          <Suspense fallback={<PageSpin />}>{children}</Suspense>
        </div>
      </ScreenActivityContext.Provider>
    </div>
  );
}

/** The sidebar's place on a phone: a drawer from the left, opened from the header. */
import { Drawer } from 'antd';
import type { ReactNode } from 'react';

interface MenuDrawerProps {
  open: boolean;
  width: number;
  onClose: () => void;
  children: ReactNode;
}

export default function MenuDrawer({ open, width, onClose, children }: MenuDrawerProps) {
  return (
    <Drawer placement="left" size={width} open={open} onClose={onClose} closable={false} className="shell-drawer" title={null}>
      {children}
    </Drawer>
  );
}

/** The 详情 drawer of a list (`detail`); loaded on demand, so lists without one do not carry it. */
import { Drawer } from 'antd';
import type { ReactNode } from 'react';

interface DetailDrawerProps {
  title: string;
  width: number;
  onClose: () => void;
  children: ReactNode;
}

export default function DetailDrawer({ title, width, onClose, children }: DetailDrawerProps) {
  return (
    <Drawer open title={title} size={width} onClose={onClose}>
      {children}
    </Drawer>
  );
}

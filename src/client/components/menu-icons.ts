/**
 * Menu icons are stored as antd icon names. Only the names listed here render; an unknown name
 * shows no icon, so a menu record can never pull arbitrary code into the page.
 */
import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  ClockCircleOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  HomeOutlined,
  LoginOutlined,
  MenuOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

const menuIcons: Record<string, ComponentType> = {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  ClockCircleOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  HomeOutlined,
  LoginOutlined,
  MenuOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
};

/** The names a menu may use: the menu screen offers exactly these in its icon select. */
export const MENU_ICON_NAMES: readonly string[] = Object.keys(menuIcons);

export function menuIcon(name: string): ComponentType | undefined {
  return Object.hasOwn(menuIcons, name) ? menuIcons[name] : undefined;
}

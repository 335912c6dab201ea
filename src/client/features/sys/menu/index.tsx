/** The 菜单管理 screen (sys/menu); its list, search and dialogs come with the screen's own issue. */
export default function SysMenuScreen() {
  return <h2>菜单管理</h2>;
}

/** The 角色管理 screen (sys/role); its list, search and dialogs come with the screen's own issue. */
export default function SysRoleScreen() {
  return <h2>角色管理</h2>;
}

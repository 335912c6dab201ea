/** The 用户管理 screen (sys/user); its list, search and dialogs come with the screen's own issue. */
export default function SysUserScreen() {
  return <h2>用户管理</h2>;
}

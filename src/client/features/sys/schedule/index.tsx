/** The 定时任务 screen (sys/schedule); its list, search and dialogs come with the screen's own issue. */
export default function SysScheduleScreen() {
  return <h2>定时任务</h2>;
}

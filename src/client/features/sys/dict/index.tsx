/** The 数据字典 screen (sys/dict); its list, search and dialogs come with the screen's own issue. */
export default function SysDictScreen() {
  return <h2>数据字典</h2>;
}

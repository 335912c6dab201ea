/** The 高级设置 screen (hotel/advanced); its list, search and dialogs come with the screen's own issue. */
export default function HotelAdvancedScreen() {
  return <h2>高级设置</h2>;
}

/** The 设备管理 screen (hotel/device); its list, search and dialogs come with the screen's own issue. */
export default function HotelDeviceScreen() {
  return <h2>设备管理</h2>;
}

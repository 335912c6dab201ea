/** What list exports share besides the xlsx writer: times read in a file as on the screens. */
import { formatTime } from '../../contract/time';

/** Epoch ms as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai, exactly as the screens show it; empty for none. */
export const timeText = formatTime;

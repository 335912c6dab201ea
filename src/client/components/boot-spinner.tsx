/**
 * A CSS-only spinner for the moment the shell chunk loads. The login route carries it instead of
 * antd Spin, which would cost its budget a few KB (docs/client.md, Bundle budget); screens use PageSpin.
 */
import './boot-spinner.css';

export function BootSpinner() {
  return (
    <div className="boot-spinner" role="status" aria-label="加载中">
      <span className="boot-spinner-ring" />
    </div>
  );
}

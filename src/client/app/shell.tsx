/**
 * The shell with the screens it shows: one lazy chunk with the view registry, so the login route
 * does not carry the table of every screen's chunks.
 */
import Shell from '../features/sys/layout';
import { viewRegistry } from './view-registry';

export default function AppShell() {
  return <Shell views={viewRegistry} />;
}

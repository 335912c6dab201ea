/** The app secret is write-only: what answers and the audit trail show in its place. */

/** Below this length the last four characters would give away too much of the secret. */
const MASK_REVEAL_MIN_LENGTH = 12;

export function maskSecret(secret: string): string {
  if (secret === '') return '';
  return secret.length >= MASK_REVEAL_MIN_LENGTH ? `******${secret.slice(-4)}` : '******';
}

/** How a write-only secret appears in answers and audit records: never in clear. */

/** Below this length the last four characters would give away too much of the secret. */
const MASK_REVEAL_MIN_LENGTH = 12;

/** `******` and, for a long secret, its last four characters; empty when there is none. */
export function maskSecret(secret: string): string {
  if (secret === '') return '';
  return secret.length >= MASK_REVEAL_MIN_LENGTH ? `******${secret.slice(-4)}` : '******';
}

/** A list stored as JSON text; anything else (corrupt or hand-edited) reads as an empty list. */
export function parseJsonList<T>(text: string): T[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** The message of whatever was thrown, or null when there is nothing readable to show. */
export function errorMessageOf(error: unknown): string | null {
  if (error instanceof Error) return error.message.trim() || null;
  if (typeof error === 'string') return error.trim() || null;
  if (typeof error === 'object' && error !== null) {
    const { message, Description } = error as Record<string, unknown>;
    if (typeof message === 'string' && message.trim()) return message.trim();
    if (typeof Description === 'string' && Description.trim()) return Description.trim();
  }
  return null;
}

/** An id support can look the failure up by (an error-reporting event id), when the error carries one. */
export function errorIdOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { errorId, eventId } = error as Record<string, unknown>;
  for (const id of [errorId, eventId]) {
    if (typeof id === 'string' && id.trim()) return id.trim();
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  }
  return null;
}

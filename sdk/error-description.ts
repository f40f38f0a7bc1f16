/** A thrown value as the wire carries it; never throws, whatever the value's getters do. */
export function describeError(error: unknown): { name: string; message: string; stack?: string } {
  try {
    if (error instanceof Error) {
      return { name: String(error.name), message: String(error.message), ...(typeof error.stack === 'string' ? { stack: error.stack } : {}) };
    }
    return { name: typeof error, message: String(error) };
  } catch {
    return { name: 'Error', message: '<unreadable error>' };
  }
}

/** {@link describeError} without the stack, cut to wire lengths. */
export function shortError(error: unknown): { name: string; message: string } {
  const e = describeError(error);
  return { name: e.name.slice(0, 200), message: e.message.slice(0, 2000) };
}

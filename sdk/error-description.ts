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

/**
 * What a dependency call threw, as a world's call log carries it (`DependencyCall.error`) and as
 * the patch helper's stand-ins get it back: an Error's name and message, anything else as an
 * `Error` with its text.
 */
export function dependencyError(e: unknown): { name: string; message: string } {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

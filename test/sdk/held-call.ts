/** Runs a failing call under waitForFix; gives what it threw and how long it was held. */
export async function held(run: () => unknown): Promise<{ error: unknown; ms: number }> {
  const t0 = Date.now();
  try {
    await run();
  } catch (error) {
    return { error, ms: Date.now() - t0 };
  }
  throw new Error('the call did not throw');
}

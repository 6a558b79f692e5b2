/** Poll `check` until it returns true or `timeoutMs` passes; background work under load needs slack, not fixed sleeps. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, stepMs = 25): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

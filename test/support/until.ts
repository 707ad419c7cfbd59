// Waiting in tests without timing asserts: poll until a condition holds; the test's own timeout bounds it.

/** Polls `read` until `done` holds for its value, and returns that value. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

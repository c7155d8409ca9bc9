/**
 * What `fn` throws, or undefined when it returns: for a test that then checks the error's class
 * and fields one by one (`toThrow` checks only the message or one object shape).
 */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

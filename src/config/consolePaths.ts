/**
 * Where the console lives on the service's origin, outside the API (whose paths are the spec's):
 * the server's console router mounts these, and the console's pages fetch them, from this one list.
 */
export const CONSOLE_PATHS = {
  /** The console's pages and its own endpoints below. */
  base: '/console',
  /** Its sign-in settings. */
  config: '/config',
  /** Who a token names. */
  session: '/session',
  /** The development sign-in: the world's users, and a token for one of them. */
  developmentUsers: '/dev/users',
  developmentToken: '/dev/token',
  /** Anything else under the development prefix: 404, never the console's page. */
  developmentAny: '/dev/{*rest}',
  /** The built files, content-hashed. */
  assets: '/assets',
  /** Every other address: the console's page, which routes in the browser. */
  page: '/{*rest}',
} as const;

/**
 * The browser console (docs/console.md) on the service's own origin, outside the API: its built
 * files from `dir` (content-hashed assets cached for a year, index.html never cached), index.html
 * for any other address under /console/ (the console routes in the browser, so a pasted link or a
 * reload opens its page), its sign-in settings (/console/config), who a token names
 * (/console/session), and — only where the development secret is in use — the development
 * sign-in: the world's users and a token for one of them, the same token `npm run token` prints.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import type { Config } from '../config/config.js';
import { CONSOLE_PATHS } from '../config/consolePaths.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { canSignIn, signInUsers } from '../usecases/access/developmentSignIn.js';
import { signedInUser } from '../usecases/access/consoleSession.js';
import type { Principal } from '../usecases/access/principal.js';
import { type Authenticate, refusalOf } from './access/auth.js';
import { sendError } from './pipeline/envelope.js';
import { signAccessToken } from './access/tokens.js';

/** A development token's life: a working session's length (the console signs in again after). */
const DEVELOPMENT_TOKEN_TTL_SECONDS = 8 * 3600;
const YEAR_SECONDS = 365 * 24 * 3600;

export interface ConsoleOptions {
  console: Config['console'];
  jwt: Config['jwt'];
  deps: Pick<UseCaseDeps, 'db'>;
  /** The API's own token check: /console/session names the user of a token the API accepts, and no other. */
  authenticate: Authenticate;
}

function developmentSignIn(router: Router, options: ConsoleOptions): void {
  router.get(CONSOLE_PATHS.developmentUsers, async (_req, res, next) => {
    try {
      res.set('Cache-Control', 'no-store').json({ success: true, data: { users: await signInUsers(options.deps) } });
    } catch (error) {
      next(error);
    }
  });
  router.post(CONSOLE_PATHS.developmentToken, express.json({ limit: '1kb' }), async (req, res, next) => {
    try {
      const userId: unknown = (req.body as { userId?: unknown } | undefined)?.userId;
      if (typeof userId !== 'string' || !/^[0-9a-f-]{36}$/i.test(userId) || !(await canSignIn(options.deps, userId))) {
        return sendError(res, 'NOT_FOUND', 'No such user', { field: 'userId' });
      }
      const token = await signAccessToken(options.jwt, userId, DEVELOPMENT_TOKEN_TTL_SECONDS);
      res.set('Cache-Control', 'no-store').json({ success: true, data: { token, expiresInSeconds: DEVELOPMENT_TOKEN_TTL_SECONDS } });
    } catch (error) {
      next(error);
    }
  });
}

/** The signed-in user's name, role, permissions and company, for the token in the Authorization header. */
function session(options: ConsoleOptions): RequestHandler {
  return async (req, res, next) => {
    try {
      let principal: Principal;
      try {
        principal = await options.authenticate(req.headers.authorization);
      } catch (failure) {
        const refusal = refusalOf(failure);
        if (!refusal) return next(failure);
        return sendError(res, 'UNAUTHORIZED', refusal.message, { reason: refusal.reason });
      }
      const user = await signedInUser(options.deps, principal);
      if (!user) return sendError(res, 'UNAUTHORIZED', 'The access token is invalid', { reason: 'TOKEN_INVALID' });
      const { id, name, role, permissions, companyLegalName } = user;
      res.set('Cache-Control', 'no-store').json({ success: true, data: { userId: id, name, role, permissions, company: companyLegalName } });
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The console's pages fetch the identity provider's discovery document and token endpoint from
 * the browser: the Content-Security-Policy (helmet's, default-src 'self') lets them reach its origin too.
 */
function allowConnectingTo(origin: string): RequestHandler {
  return (_req, res, next) => {
    const policy = res.getHeader('Content-Security-Policy');
    if (typeof policy === 'string') res.setHeader('Content-Security-Policy', `${policy};connect-src 'self' ${origin}`);
    next();
  };
}

/** The router mounted at /console, before the API's token check and validator: nothing here is an API path. */
export function consoleRouter(options: ConsoleOptions): Router {
  const router = express.Router();
  const dir = resolve(options.console.dir);
  router.get(CONSOLE_PATHS.config, (_req, res) => {
    const { developmentSignIn, oidc } = options.console;
    res.set('Cache-Control', 'no-store').json({ success: true, data: { developmentSignIn, oidc } });
  });
  router.get(CONSOLE_PATHS.session, session(options));
  if (options.console.oidc) router.use(allowConnectingTo(new URL(options.console.oidc.issuer).origin));
  if (options.console.developmentSignIn) developmentSignIn(router, options);
  router.all(CONSOLE_PATHS.developmentAny, (req, res) => sendError(res, 'NOT_FOUND', `No route for ${req.method} ${req.originalUrl.split('?')[0]}`));
  router.use(CONSOLE_PATHS.assets, express.static(resolve(dir, 'assets'), { immutable: true, maxAge: YEAR_SECONDS * 1000, index: false, fallthrough: false }));
  router.get(CONSOLE_PATHS.page, (req, res) => {
    if (!existsSync(resolve(dir, 'index.html'))) {
      return sendError(res, 'SERVICE_UNAVAILABLE', 'The console is not built: run npm run build:console');
    }
    res.set('Cache-Control', 'no-cache').sendFile(resolve(dir, 'index.html'));
  });
  return router;
}

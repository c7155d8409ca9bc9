/** Addresses under /console/: each page has its own, so a link can be pasted and a reload keeps the page. */
import { useEffect, useState } from 'preact/hooks';
import { CONSOLE_PATHS } from '../../src/config/consolePaths.js';

export const BASE = CONSOLE_PATHS.base;
const listeners = new Set<() => void>();

/** The page's path below /console (always starting with '/'), with its query string. */
export function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return (path === '' ? '/' : path) + window.location.search;
}

/** Opens `path`; `replace` takes the place of the current entry of the history (the back button skips it). */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', BASE + path);
  else window.history.pushState(null, '', BASE + path);
  listeners.forEach((listener) => listener());
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const listener = () => setPath(currentPath());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return path;
}

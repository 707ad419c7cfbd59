// Where sign-in returns to: `next=` normalised to a dashboard page of this origin, else the
// dashboard home. Closes the open redirect: absolute URLs, `//host`, backslashes, control
// characters, dot segments that climb out of /dashboard and non-dashboard paths all go home.

export const DASHBOARD_HOME = '/dashboard';

/** Longest `next=` kept; a longer one is not a page the dashboard links to. */
const MAX_NEXT = 2000;
/** A placeholder origin to resolve against: a result on another origin was never a local path. */
const LOCAL = 'http://dashboard.invalid';
/** Paths under /dashboard that are not pages to land on after signing in. */
const NOT_PAGES = /^\/dashboard\/(login|logout|assets)(\/|$)/;

export function dashboardNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_NEXT) return DASHBOARD_HOME;
  // Only an absolute path: not a scheme, not `//host`, and nothing a browser would read as a slash.
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return DASHBOARD_HOME;
  let url: URL;
  try {
    url = new URL(value, LOCAL);
  } catch {
    return DASHBOARD_HOME;
  }
  // The parser has resolved `.`/`..` (also percent-encoded), so the path is what a browser would ask for.
  if (url.origin !== LOCAL || !(url.pathname === DASHBOARD_HOME || url.pathname.startsWith(`${DASHBOARD_HOME}/`))) return DASHBOARD_HOME;
  if (NOT_PAGES.test(url.pathname) || url.pathname.includes('//')) return DASHBOARD_HOME;
  return `${url.pathname}${url.search}`;
}

import { sessionHint } from './features/auth/session-hint';

/**
 * The page's entry: a few hundred bytes that decide when the app starts (docs/frontend-performance.md).
 *
 * - A page the server pre-rendered (the landing, pricing and legal pages) is complete without the
 *   app: its text and pictures are painted from the HTML and its links are real links. For a visitor
 *   without a session, the app (React, Chakra, the router: most of a phone's main thread at load)
 *   starts on the visitor's first sign of intent: a pointer moving or pressed, a touch, a key, focus,
 *   a scroll. Its modules are fetched then, in parallel (the browser caches them for a year: a
 *   returning visitor has them). Prefetching them after the load cost about 100 ms of a phone's main
 *   thread in Lighthouse's mobile simulation (`npm run bench:web`).
 *   A click that arrives before the app is live is held and replayed on the same element once it is,
 *   so no click is lost (the app's own navigation and dialogs answer it).
 *   Without any intent, it starts 10 s after the load, when the browser is idle: a visitor who touches,
 *   scrolls or moves a pointer starts it at once, so this start only serves one who reads for a while
 *   and then acts without any of those (it is not part of the page's load, whatever the device's speed).
 * - Every other page, and every visitor whose browser had a session (the top bar must show their
 *   account), starts the app at once.
 */

const INTENT_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll'] as const;
/** How long after its load an untouched page waits before it starts the app anyway (ms). */
const IDLE_START_MS = 10_000;
/** Then at most this long for the browser to be idle (ms). */
const IDLE_DEADLINE_MS = 2000;
/** Elements whose click the app handles: held until the app is live, then replayed. */
const ACTIONABLE = 'a[href], button, [role="button"], [role="link"], [role="tab"], [role="menuitem"], summary';

let starting: Promise<void> | undefined;

/** Starts the app (once); resolves when its markup is live (App sets `data-app="ready"`). */
function startApp(): Promise<void> {
  starting ??= import('./main').then(appReady);
  return starting;
}

function appReady(): Promise<void> {
  const html = document.documentElement;
  if (html.dataset.app === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (html.dataset.app !== 'ready') return;
      observer.disconnect();
      resolve();
    });
    observer.observe(html, { attributes: true, attributeFilter: ['data-app'] });
  });
}

/** A plain left click (no modifier): one the app handles itself. Others (new tab, download) stay the browser's. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.defaultPrevented;

function startOnIntent(): void {
  const html = document.documentElement;
  let held: HTMLElement | undefined;

  const onIntent = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, onIntent, true);
    void startApp().catch(() => undefined);
  };
  for (const type of INTENT_EVENTS) window.addEventListener(type, onIntent, { capture: true, passive: true });

  const onClick = (event: MouseEvent) => {
    if (!isPlainClick(event) || !(event.target instanceof Element)) return;
    const target = event.target.closest<HTMLElement>(ACTIONABLE);
    if (!target || (target instanceof HTMLAnchorElement && (target.target === '_blank' || target.hasAttribute('download')))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const first = held === undefined;
    held = target;
    if (!first) return; // a second click while the app starts: the last one is replayed
    html.style.cursor = 'progress';
    startApp().then(
      () => {
        document.removeEventListener('click', onClick, true);
        html.style.cursor = '';
        if (held?.isConnected) held.click();
      },
      () => {
        // the app's code did not load (offline, or a new deploy replaced it): let the browser act
        document.removeEventListener('click', onClick, true);
        html.style.cursor = '';
        if (held instanceof HTMLAnchorElement) window.location.assign(held.href);
        else window.location.reload();
      },
    );
  };
  document.addEventListener('click', onClick, true);

  // Without any intent, the app starts once the page has been idle for a while after its load, in
  // the browser's idle time, so that a later click finds it live.
  const whenIdle = () =>
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(onIntent, { timeout: IDLE_DEADLINE_MS });
      else onIntent();
    }, IDLE_START_MS);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
  void appReady().then(() => document.removeEventListener('click', onClick, true));
}

const prerendered = Boolean(document.getElementById('root')?.firstElementChild && document.getElementById('page-data'));
if (prerendered && !sessionHint.present()) startOnIntent();
else void startApp();

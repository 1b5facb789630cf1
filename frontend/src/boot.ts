import { adoptServerEarlyAuth, earlyAuthModeOf, type EarlyAuthHooks, openEarlyAuth } from './boot/early-auth-dialog';
import { EARLY_AUTH_ID } from './features/auth/early-auth';
import { sessionHint } from './features/auth/session-hint';

/**
 * The page's entry: a few kilobytes that decide when the app starts, and answer a click at once
 * while it is not live (docs/frontend-performance.md).
 *
 * - A page the server pre-rendered (the landing, pricing and legal pages) is complete without the
 *   app: its text and pictures are painted from the HTML and its links are real links. Starting the
 *   app (React, Chakra, the router: most of a phone's main thread, seconds on a slow one) blocks
 *   every click that comes meanwhile, so for a visitor without a session it starts only when it is
 *   needed or the page has been idle a while:
 *   - a click on Log in, Sign up or Get started opens the early auth dialog at once (the dialog's
 *     own pre-rendered markup, features/auth/early-auth.ts), then the app starts, and its auth
 *     dialog takes over with what was typed;
 *   - a click on any other link is the browser's: it follows the link at once (every one leads to a
 *     page of its own), shown pressed until the next page comes;
 *   - a click on a button is held, shown pressed, and clicked again once the app is live;
 *   - otherwise 10 s after the load, in the browser's idle time, so that a later click finds it live.
 *   The first sign of a person (a pointer, a touch, a key, a scroll) only fetches the app's modules
 *   (the browser caches them for a year), without running them.
 * - A page the server sent with the auth dialog open (`/?auth=login`), every other page, and every
 *   visitor whose browser had a session (the top bar must show their account) start the app at once.
 */

const INTENT_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll'] as const;
/** How long after its load an untouched page waits before it starts the app anyway (ms). */
const IDLE_START_MS = 10_000;
/** Then at most this long for the browser to be idle (ms). */
const IDLE_DEADLINE_MS = 2000;
/** Input React hydrates the whole page for at once when it lands on markup not hydrated yet (its discrete events). */
const SHIELDED_EVENTS = [
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'touchstart',
  'touchend',
  'click',
  'keydown',
  'keyup',
] as const;
/** Elements whose click the app handles: held until the app is live, then replayed. */
const ACTIONABLE = 'a[href], button, [role="button"], [role="link"], [role="tab"], [role="menuitem"], summary';
/** The page's list of the app's modules (the server moves them there from the head: not fetched with the page). */
const APP_MODULES_ID = 'app-modules';
/** The mark over a pressed control while its answer comes (styled in index.html). */
const PRESSED_MARK_ID = 'pressed-mark';

const html = document.documentElement;
let starting: Promise<void> | undefined;

/** Starts the app (once); resolves when its markup is live (App sets `data-app="ready"`). */
function startApp(): Promise<void> {
  if (!html.dataset.app) html.dataset.app = 'starting';
  starting ??= loadApp().then(appReady);
  return starting;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The app's code, evaluated in three tasks instead of one: React, then Chakra, then the app. A
 * browser answers input only between tasks; evaluated at once they were one task of about 230 ms on
 * a phone's CPU (6x slowed), and a click that came meanwhile waited for all of it.
 */
async function loadApp(): Promise<unknown> {
  await import('react-dom/client');
  await nextTask();
  // the design system's module: Chakra's chunk is evaluated with it (only what the app uses of Chakra)
  await import('./theme/system');
  await nextTask();
  return import('./main');
}

/** Starts the app once the browser has painted what the click changed (the answer is on screen first); resolves when it is live. */
function startAfterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))).then(startApp);
}

function appReady(): Promise<void> {
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

/** Fetches the app's modules into the browser's cache, without running them (once). */
let prefetched = false;
function prefetchApp(): void {
  if (prefetched) return;
  prefetched = true;
  const list = document.getElementById(APP_MODULES_ID);
  if (!(list instanceof HTMLTemplateElement)) return;
  for (const link of list.content.querySelectorAll('link[href]')) {
    const prefetch = document.createElement('link');
    prefetch.rel = 'prefetch';
    prefetch.as = 'script';
    prefetch.crossOrigin = ''; // the mode a module script is fetched in: the same cache entry
    prefetch.href = link.getAttribute('href')!;
    document.head.append(prefetch);
  }
}

/** Shows `control` pressed (a mark over it, outside the page's markup, which the app hydrates) until `clearPressed`. */
function showPressed(control: Element): void {
  const box = control.getBoundingClientRect();
  const mark = document.getElementById(PRESSED_MARK_ID) ?? document.createElement('div');
  mark.id = PRESSED_MARK_ID;
  mark.setAttribute('aria-hidden', 'true');
  Object.assign(mark.style, {
    left: `${box.left}px`,
    top: `${box.top}px`,
    width: `${box.width}px`,
    height: `${box.height}px`,
    borderRadius: getComputedStyle(control).borderRadius,
  });
  document.body.append(mark);
  html.style.cursor = 'progress';
}

function clearPressed(): void {
  document.getElementById(PRESSED_MARK_ID)?.remove();
  html.style.cursor = '';
}

/** A plain left click (no modifier): one the app handles itself. Others (new tab, download) stay the browser's. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.defaultPrevented;

function answerUntilLive(): void {
  let held: HTMLElement | undefined;

  const hooks: EarlyAuthHooks = {
    // closed before the app took over: nothing to replay
    onClosed: () => {
      held = undefined;
    },
    onAction: () => void startApp().catch(() => undefined),
  };

  const onIntent = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, onIntent, true);
    prefetchApp();
  };
  for (const type of INTENT_EVENTS) window.addEventListener(type, onIntent, { capture: true, passive: true });

  /** where the held control was on the screen (its middle), to find it again if the app replaced it */
  let heldAt: { x: number; y: number } | undefined;
  const replay = () => {
    document.removeEventListener('click', onClick, true);
    for (const type of SHIELDED_EVENTS) document.removeEventListener(type, shield, true);
    clearPressed();
    // the app may have rendered the page afresh rather than adopted its markup (a page that differed):
    // then the control now drawn where the person clicked is the one clicked
    const drawn = heldAt && document.elementFromPoint(heldAt.x, heldAt.y)?.closest<HTMLElement>(ACTIONABLE);
    // (never a control of a dialog over the page: only the page's own)
    const target = held?.isConnected ? held : drawn && document.getElementById('root')?.contains(drawn) ? drawn : undefined;
    if (held && target) target.click();
    held = undefined;
    heldAt = undefined;
  };
  const giveUp = () => {
    // the app's code did not load (offline, or a new deploy replaced it): let the browser act
    document.removeEventListener('click', onClick, true);
    clearPressed();
    if (held instanceof HTMLAnchorElement) window.location.assign(held.href);
    else if (held) window.location.reload();
  };
  const holdUntilLive = (target: HTMLElement) => {
    held = target;
    const box = target.getBoundingClientRect();
    heldAt = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    startAfterPaint().then(replay, giveUp);
  };

  const onClick = (event: MouseEvent) => {
    if (!isPlainClick(event) || !(event.target instanceof Element)) return;
    if (event.target.closest(`#${EARLY_AUTH_ID}`)) return; // the early dialog answers its own
    const target = event.target.closest<HTMLElement>(ACTIONABLE);
    if (!target) return;
    if (target instanceof HTMLAnchorElement) {
      if (target.target === '_blank' || target.hasAttribute('download')) return;
      const mode = earlyAuthModeOf(target);
      if (mode && openEarlyAuth(mode, target, hooks)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        holdUntilLive(target);
        return;
      }
      // a link to another page: the browser follows it now (a link within the page just scrolls)
      const samePage = target.pathname === window.location.pathname && target.search === window.location.search;
      if (!samePage) showPressed(target);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    showPressed(target);
    holdUntilLive(target);
  };
  document.addEventListener('click', onClick, true);

  // While the app hydrates (in slices, between which the browser handles input), a press or a click
  // that reached React on markup it has not hydrated yet would make it hydrate the whole page at
  // once, in one long task (about 500 ms on a phone's CPU), before the press is answered. Until the
  // app is live, presses on the page stop here: nothing of the app answers them yet (the clicks are
  // answered above, or are the browser's own: a link followed, a field focused).
  const shield = (event: Event) => {
    if (event.target instanceof Node && document.getElementById('root')?.contains(event.target)) event.stopPropagation();
  };
  for (const type of SHIELDED_EVENTS) document.addEventListener(type, shield, true);
  // back to this page from the browser's cache: not pressed any more
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) clearPressed();
  });
  void appReady().then(() => {
    document.removeEventListener('click', onClick, true);
    for (const type of SHIELDED_EVENTS) document.removeEventListener(type, shield, true);
    clearPressed();
  });

  // The server sent the dialog open (`/?auth=login`): the visitor came for it; the app starts at once.
  if (adoptServerEarlyAuth(hooks)) {
    startAfterPaint().catch(giveUp);
    return;
  }

  // Without any need, the app starts once the page has been idle for a while after its load, in the
  // browser's idle time, so that a later click finds it live.
  const idleStart = () => {
    prefetchApp();
    void startApp().catch(() => undefined);
  };
  const whenIdle = () =>
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(idleStart, { timeout: IDLE_DEADLINE_MS });
      else idleStart();
    }, IDLE_START_MS);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

const prerendered = Boolean(document.getElementById('root')?.firstElementChild && document.getElementById('page-data'));
if (prerendered) answerUntilLive();
if (!prerendered || sessionHint.present()) void startApp();

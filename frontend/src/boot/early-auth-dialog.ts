import {
  EARLY_ACTION_ATTRIBUTE,
  EARLY_AUTH_ID,
  EARLY_AUTH_MODES,
  EARLY_AUTH_STYLE_ID,
  type EarlyAuthMode,
  earlyAuthElement,
  earlyAuthTemplateId,
  dismissEarlyAuth,
} from '../features/auth/early-auth';

/**
 * The early auth dialog's behaviour before the app is live (features/auth/early-auth.ts): a few
 * hundred bytes of the page's entry that open the dialog's pre-rendered markup at the click, and
 * answer what a person does in it until the app's auth dialog takes over: typing (plain inputs),
 * Escape, the close button and a press outside it (closed), the switch between Log in and Create
 * account, Show/Hide of the password, the 18+ box, and a submit or "Forgot password?", which are
 * kept for the auth dialog to carry out. Continue with Google is a plain link.
 */

/** What the entry learns from the dialog: closed (no app needed for it any more), or an action asked for (the app is). */
export interface EarlyAuthHooks {
  onClosed(): void;
  onAction(): void;
}

let hooks: EarlyAuthHooks = { onClosed: () => undefined, onAction: () => undefined };
/** the element to give the focus back to when the dialog closes */
let returnFocus: HTMLElement | null = null;

/** The early dialog's mode for a link's URL (`/?auth=login`, `/?auth=signup`), or null: another link. */
export function earlyAuthModeOf(link: HTMLAnchorElement): EarlyAuthMode | null {
  if (link.origin !== window.location.origin || link.pathname !== '/') return null;
  const params = new URLSearchParams(link.search);
  const mode = params.get('auth');
  if ([...params.keys()].length !== 1) return null;
  return EARLY_AUTH_MODES.find((m) => m === mode) ?? null;
}

function cloneTemplate(id: string): DocumentFragment | null {
  const template = document.getElementById(id);
  return template instanceof HTMLTemplateElement ? (template.content.cloneNode(true) as DocumentFragment) : null;
}

/** Opens the early dialog of `mode` at a click on `trigger`; false when the page has no markup for it. */
export function openEarlyAuth(mode: EarlyAuthMode, trigger: HTMLElement, on: EarlyAuthHooks): boolean {
  if (earlyAuthElement()) return true;
  const style = cloneTemplate(EARLY_AUTH_STYLE_ID);
  const content = cloneTemplate(earlyAuthTemplateId(mode));
  if (!style || !content) return false;
  const box = document.createElement('div');
  box.id = EARLY_AUTH_ID;
  box.dataset.mode = mode;
  box.append(style, content);
  document.body.append(box);
  returnFocus = trigger;
  activate(box, on);
  return true;
}

/** Takes over a dialog the server sent open (`/?auth=login`): true when there is one. */
export function adoptServerEarlyAuth(on: EarlyAuthHooks): boolean {
  const box = earlyAuthElement();
  if (!box) return false;
  activate(box, on);
  return true;
}

function firstField(box: HTMLElement): HTMLInputElement | null {
  return box.querySelector<HTMLInputElement>('input:not([type="checkbox"]):not([type="hidden"])');
}

function activate(box: HTMLElement, on: EarlyAuthHooks): void {
  hooks = on;
  // Modal without making the page behind `inert`: that restyles every element of the page (a long
  // task on a phone, between the click and the dialog's paint). The dialog's backdrop covers the page,
  // its content says `aria-modal`, and Tab stays inside it (onKeyDown).
  box.addEventListener('click', onClick);
  box.addEventListener('submit', onSubmit);
  box.addEventListener('change', onChange);
  document.addEventListener('keydown', onKeyDown, true);
  if (!box.contains(document.activeElement)) firstField(box)?.focus();
}

function close(): void {
  const box = earlyAuthElement();
  document.removeEventListener('keydown', onKeyDown, true);
  if (!box) return;
  dismissEarlyAuth();
  // a dialog the server sent open: the address no longer asks for it
  if (new URLSearchParams(window.location.search).has('auth')) window.history.replaceState(window.history.state, '', '/');
  const back = returnFocus;
  returnFocus = null;
  if (back?.isConnected) back.focus();
  hooks.onClosed();
}

function onKeyDown(event: KeyboardEvent): void {
  if (!earlyAuthElement()) {
    document.removeEventListener('keydown', onKeyDown, true);
    return;
  }
  if (event.key === 'Escape' && !event.defaultPrevented) {
    event.preventDefault();
    close();
  } else if (event.key === 'Tab') {
    // the focus goes round the dialog's controls, as the auth dialog's own focus trap does
    const box = earlyAuthElement()!;
    const controls = [...box.querySelectorAll<HTMLElement>('input:not([type="hidden"]), button, a[href]')].filter(
      (c) => c.getClientRects().length,
    );
    const at = controls.indexOf(document.activeElement as HTMLElement);
    const next = at === -1 ? 0 : (at + (event.shiftKey ? controls.length - 1 : 1)) % controls.length;
    if (controls[next]) {
      event.preventDefault();
      controls[next].focus();
    }
  }
}

/** The app takes the action over: the control shows it is busy meanwhile. */
function pend(box: HTMLElement, action: 'submit' | 'forgot', control: HTMLElement | null): void {
  box.dataset.pending = action;
  if (control) {
    control.setAttribute('aria-busy', 'true');
    control.style.cursor = 'progress';
  }
  hooks.onAction();
}

function onSubmit(event: Event): void {
  event.preventDefault(); // never a plain form post: the auth dialog sends it, as JSON
  const box = earlyAuthElement();
  if (!box || box.dataset.pending === 'submit') return;
  const button = box.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) {
    // the auth dialog's own busy state: "Loading..." in a disabled button
    button.dataset.loading = '';
    button.textContent = 'Loading...';
  }
  pend(box, 'submit', button);
}

function onClick(event: MouseEvent): void {
  const box = earlyAuthElement();
  if (!box || !(event.target instanceof Element)) return;
  const target = event.target;
  // a press outside the dialog's content, or its close button
  if (!target.closest('[data-part="content"]') || target.closest('[data-part="close-trigger"]')) {
    event.preventDefault();
    close();
    return;
  }
  const action = target.closest<HTMLElement>(`[${EARLY_ACTION_ATTRIBUTE}]`);
  const step = action?.getAttribute(EARLY_ACTION_ATTRIBUTE);
  if (step === 'login' || step === 'signup') {
    event.preventDefault();
    switchTo(box, step);
  } else if (step === 'forgot') {
    event.preventDefault();
    if (!box.dataset.pending) pend(box, 'forgot', action);
  } else {
    const toggle = target.closest<HTMLButtonElement>('button[aria-pressed]');
    const input = toggle?.closest('[data-part="root"], div')?.querySelector<HTMLInputElement>('input[name="password"]');
    if (toggle && input) {
      // Show / Hide of the password, as PasswordInput does it
      const shown = input.type === 'password';
      input.type = shown ? 'text' : 'password';
      toggle.setAttribute('aria-pressed', String(shown));
      toggle.setAttribute('aria-label', shown ? 'Hide password' : 'Show password');
      toggle.textContent = shown ? 'Hide' : 'Show';
    }
  }
}

/** Log in <-> Create account: the other mode's markup, with what was typed in the fields both have. */
function switchTo(box: HTMLElement, mode: EarlyAuthMode): void {
  const content = cloneTemplate(earlyAuthTemplateId(mode));
  if (!content) return;
  const typed = new Map<string, string>();
  for (const input of box.querySelectorAll<HTMLInputElement>('input[name]'))
    if (input.type !== 'checkbox') typed.set(input.name, input.value);
  // the styles (the first child) stay
  for (const child of [...box.children]) if (child.tagName !== 'STYLE') child.remove();
  box.append(content);
  box.dataset.mode = mode;
  for (const input of box.querySelectorAll<HTMLInputElement>('input[name]')) {
    const value = typed.get(input.name);
    if (value !== undefined) input.value = value;
  }
  firstField(box)?.focus();
}

/** The 18+ box: its parts show the state of its (native) checkbox, as the checkbox component does. */
function onChange(event: Event): void {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== 'checkbox') return;
  const root = input.closest('label') ?? input.parentElement;
  const state = input.checked ? 'checked' : 'unchecked';
  for (const part of [root, ...(root?.querySelectorAll('[data-state]') ?? [])]) {
    if (part?.hasAttribute('data-state')) part.setAttribute('data-state', state);
  }
  for (const part of root?.querySelectorAll('[data-part="control"], [data-part="indicator"]') ?? []) {
    if (input.checked) part.setAttribute('data-checked', '');
    else part.removeAttribute('data-checked');
  }
}

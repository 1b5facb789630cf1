/**
 * The early auth dialog (docs/frontend-performance.md, "A click before the app is live"): the auth
 * dialog's own markup, rendered by the server's pre-render with the page, which the page's entry
 * (src/boot.ts, src/boot/early-auth-dialog.ts) shows at the click on Log in, Sign up or Get started
 * while the app is not live yet, or which the server sends open for `/?auth=login` and
 * `/?auth=signup`. The visitor reads and types in it at once; when the app is live, the auth dialog
 * (AuthDialog) opens in its place with what was typed, where the focus was, and what was asked for
 * (a submit, "Forgot password?"), and removes it.
 *
 * This module is the contract between the two sides, and the app's reader. No React: the entry
 * imports it.
 */

/** The steps the early dialog has: the two of the credentials form. */
export type EarlyAuthMode = 'login' | 'signup';
export const EARLY_AUTH_MODES: readonly EarlyAuthMode[] = ['login', 'signup'];

/** The open early dialog: `<div id="early-auth" data-mode="signup">` holding the dialog's markup. */
export const EARLY_AUTH_ID = 'early-auth';
/** The markup of each mode, in a `<template>` after the page's root. */
export const earlyAuthTemplateId = (mode: EarlyAuthMode) => `early-auth-${mode}`;
/** The dialog's styles the page's own lack (a `<style>` in a `<template>`): the early dialog's first child. */
export const EARLY_AUTH_STYLE_ID = 'early-auth-style';

/**
 * What the visitor asked for while the early dialog was open, carried out by the auth dialog when
 * it takes over: the form's submit, or a move to another step (`data-early-action` on the control).
 */
export type EarlyAuthAction = 'submit' | 'forgot';
/** Marks a control of the dialog's markup for the early dialog: `forgot`, `login`, `signup` (the step it opens). */
export const EARLY_ACTION_ATTRIBUTE = 'data-early-action';

/** The fields of the credentials form, by their `name`. */
const TEXT_FIELDS = { fullName: 'full_name', email: 'email', password: 'password' } as const;
const AGE_FIELD = 'age_confirmed';

export interface EarlyAuthState {
  mode: EarlyAuthMode;
  values: { fullName: string; email: string; password: string; ageConfirmed: boolean };
  /** the field that has the focus (its `name`), with its selection, when one has it */
  focus: { name: string; start: number | null; end: number | null } | null;
  /** a submit or a step asked for before the app took over */
  pending: EarlyAuthAction | null;
}

export function earlyAuthElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(EARLY_AUTH_ID);
}

/** The open early dialog's mode, values, focus and pending action; null when none is open. */
export function readEarlyAuth(): EarlyAuthState | null {
  const box = earlyAuthElement();
  const mode = box?.dataset.mode;
  if (!box || (mode !== 'login' && mode !== 'signup')) return null;
  const field = (name: string) => box.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const text = (name: string) => field(name)?.value ?? '';
  const active = document.activeElement;
  const focused = active instanceof HTMLInputElement && box.contains(active) && active.name ? active : null;
  let start: number | null = null;
  let end: number | null = null;
  try {
    start = focused?.selectionStart ?? null;
    end = focused?.selectionEnd ?? null;
  } catch {
    // a checkbox has no selection
  }
  const pending = box.dataset.pending;
  return {
    mode,
    values: {
      fullName: text(TEXT_FIELDS.fullName),
      email: text(TEXT_FIELDS.email),
      password: text(TEXT_FIELDS.password),
      ageConfirmed: field(AGE_FIELD)?.checked ?? false,
    },
    focus: focused ? { name: focused.name, start, end } : null,
    pending: pending === 'submit' || pending === 'forgot' ? pending : null,
  };
}

/** Removes the early dialog once the auth dialog has taken over (or is not wanted), and frees the page behind it. */
export function dismissEarlyAuth(): void {
  const box = earlyAuthElement();
  if (!box) return;
  box.remove();
  // a dialog the server sent open kept the page behind it inert from the first paint
  document.getElementById('root')?.removeAttribute('inert');
}

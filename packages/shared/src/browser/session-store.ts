import { AuthMessages } from '../auth-messages';
import { AuthErrorCode } from '../error-catalogue';
import { ApiError } from './errors';
import type { ApiAuth } from './api-auth';
import type { AuthUser, SecondFactorInput, Session, SessionApi, SignInInput, SignInOutcome, SignUpInput, SignUpOutcome } from './session';

export interface SessionRefreshRules {
  checkIntervalMs: number;
  refreshMarginMs: number;
  backoffStartMs: number;
  backoffMaxMs: number;
}

/** docs/product.md: how the session is kept fresh. */
export const SESSION_REFRESH_RULES: SessionRefreshRules = {
  /** How often the session's expiry is checked. */
  checkIntervalMs: 30_000,
  /** Refresh once the access token expires within this margin. */
  refreshMarginMs: 90_000,
  /** First retry delay after a failed refresh; it doubles on each further failure ... */
  backoffStartMs: 200,
  /** ... up to this delay. */
  backoffMaxMs: 30_000,
};

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

/**
 * Why a session ended without the person signing out: the code of the API's 401 and the words to
 * show (the log-in dialog shows them after the redirect to the landing page).
 */
export interface SessionEnd {
  code: SessionEndCode;
  message: string;
}

/** The 401 codes that say why a session ended (docs/accounts.md "Sessions"). */
export const SESSION_END_CODES = [
  AuthErrorCode.ACCOUNT_SUSPENDED,
  AuthErrorCode.PASSWORD_CHANGED,
  AuthErrorCode.SESSION_REVOKED,
  AuthErrorCode.SESSION_EXPIRED,
] as const;
export type SessionEndCode = (typeof SESSION_END_CODES)[number];

const SESSION_END_MESSAGES: Record<SessionEndCode, string> = {
  [AuthErrorCode.ACCOUNT_SUSPENDED]: AuthMessages.accountSuspended,
  [AuthErrorCode.PASSWORD_CHANGED]: AuthMessages.signedOutPasswordChanged,
  [AuthErrorCode.SESSION_REVOKED]: AuthMessages.signedOutForSafety,
  [AuthErrorCode.SESSION_EXPIRED]: AuthMessages.sessionExpired,
};

/** The words for a session-end code (of a URL, say), or null for anything else. */
export function sessionEndMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(SESSION_END_MESSAGES, code) ? SESSION_END_MESSAGES[code as SessionEndCode] : null;
}

/**
 * Why the session the store held is gone, from the API's refusal: its code when it names a reason;
 * a bare 401 of a session that was there counts as expired (the refresh cookie ends with the
 * session, so the browser no longer sends it). Nothing when there was no session to lose.
 */
function sessionEndOf(error: ApiError, hadSession: boolean): SessionEnd | undefined {
  const message = sessionEndMessage(error.code);
  if (message) return { code: error.code as SessionEndCode, message };
  if (hadSession) return { code: AuthErrorCode.SESSION_EXPIRED, message: AuthMessages.sessionExpired };
  return undefined;
}

export type AuthSnapshot =
  | { status: 'loading'; session: null }
  | { status: 'signed-in'; session: Session }
  /** `ended`: the session ended without a sign-out, and why */
  | { status: 'signed-out'; session: null; ended?: SessionEnd };

/** Tabs of the app tell each other about sessions, so that one refresh serves them all. */
type TabMessage = { type: 'session'; session: Session } | { type: 'signed-out'; ended?: SessionEnd };

/** A flag (never a token) remembering that this browser had a session: see session-hint.ts. */
export interface SessionHint {
  set(present: boolean): void;
}

export interface SessionStoreOptions {
  /**
   * Whether to ask the server for a session on start (default true). When false the store
   * starts signed out without a request: nothing suggests that the browser has a session.
   */
  restore?: boolean;
  hint?: SessionHint;
  rules?: SessionRefreshRules;
  now?: () => number;
}

const CHANNEL_NAME = 'fitting-room:auth';
/** Held (across tabs) while a refresh runs: two tabs presenting one refresh token would revoke it. */
const REFRESH_LOCK = 'fitting-room:session-refresh';

/** The server says the session is gone (expired, revoked or never there) rather than failing. */
function isSessionGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/**
 * The browser's session. The access token lives only in memory; the refresh token is an httpOnly
 * cookie the API reads on `refresh`. On start the store restores the session from that cookie
 * (`loading` until the server answers; see `SessionStoreOptions.restore`), then checks every 30 s and refreshes within 90 s of the
 * token's expiry. A refresh that fails for a transient reason is retried after 200 ms, doubling up
 * to 30 s; when the server says the session is gone the state becomes `signed-out`.
 *
 * Implements `ApiAuth`, so the API client reads the token from here and asks for a fresh one
 * when a protected call answers 401.
 */
export class SessionStore implements ApiAuth {
  private snapshot: AuthSnapshot = { status: 'loading', session: null };
  /** the snapshot before anything happened (loading, or signed out without a restore) */
  private readonly initial: AuthSnapshot;
  private readonly listeners = new Set<() => void>();
  private inflight: Promise<Session | null> | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private checkTimer: ReturnType<typeof setInterval> | undefined;
  private channel: BroadcastChannel | null = null;
  private started = false;

  private readonly rules: SessionRefreshRules;
  private readonly now: () => number;
  private readonly hint: SessionHint | undefined;

  constructor(
    private readonly api: SessionApi,
    options: SessionStoreOptions = {},
  ) {
    this.rules = options.rules ?? SESSION_REFRESH_RULES;
    this.now = options.now ?? Date.now;
    this.hint = options.hint;
    if (options.restore === false) this.snapshot = { status: 'signed-out', session: null };
    this.initial = this.snapshot;
  }

  // --- state, for useSyncExternalStore ---------------------------------------------------------

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): AuthSnapshot => this.snapshot;

  /**
   * The snapshot the store started with, whatever happened since: what React renders while it
   * hydrates markup that was rendered without a session (useSyncExternalStore's server snapshot), so
   * that a session restored before hydration began does not make the first render differ from it.
   */
  readonly getInitialSnapshot = (): AuthSnapshot => this.initial;

  private set(next: AuthSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  private setSession(session: Session, announce: boolean): void {
    this.failures = 0;
    this.clearRetry();
    this.set({ status: 'signed-in', session });
    this.hint?.set(true);
    if (announce) this.post({ type: 'session', session });
  }

  private setSignedOut(announce: boolean, ended?: SessionEnd): void {
    this.failures = 0;
    this.clearRetry();
    this.set(ended ? { status: 'signed-out', session: null, ended } : { status: 'signed-out', session: null });
    this.hint?.set(false);
    if (announce) this.post(ended ? { type: 'signed-out', ended } : { type: 'signed-out' });
  }

  /** Updates the signed-in user's details (after a profile change) without a refresh. */
  updateUser(patch: Partial<AuthUser>): void {
    const { session } = this.snapshot;
    if (session) this.set({ status: 'signed-in', session: { ...session, user: { ...session.user, ...patch } } });
  }

  // --- lifecycle ---------------------------------------------------------------------------------

  /** Restores the session from the refresh cookie and starts the checks. Returns a stop function. */
  start(): () => void {
    if (this.started) return () => this.stop();
    this.started = true;

    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL_NAME);
      this.channel.onmessage = (event: MessageEvent<TabMessage>) => this.receive(event.data);
    }
    this.checkTimer = setInterval(this.check, this.rules.checkIntervalMs);
    // Timers sleep in background tabs and on suspended laptops: check again on return.
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.check);

    if (this.snapshot.status === 'loading') void this.refresh();
    return () => this.stop();
  }

  private stop(): void {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.checkTimer);
    this.clearRetry();
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.check);
    this.channel?.close();
    this.channel = null;
  }

  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible') this.check();
  };

  /** Refreshes when the access token expires within the margin (or a first restore is pending). */
  private readonly check = (): void => {
    if (this.inflight || this.retryTimer !== undefined) return;
    const { status, session } = this.snapshot;
    if (status === 'loading' || (session && session.expiresAt - this.now() <= this.rules.refreshMarginMs)) {
      void this.refresh();
    }
  };

  // --- refresh -----------------------------------------------------------------------------------

  /**
   * Exchanges the refresh cookie for a new session. One at a time (callers share the pending
   * one). Resolves with the new session, or null when there is none: signed out, or a transient
   * failure (then a retry is scheduled). Never rejects.
   */
  refresh(): Promise<Session | null> {
    this.inflight ??= this.refreshOnce().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private refreshOnce(): Promise<Session | null> {
    const before = this.snapshot.session;
    const run = async (): Promise<Session | null> => {
      // While this tab waited for the lock another tab may have refreshed and told us the result.
      const current = this.snapshot.session;
      if (current && current !== before && current.expiresAt - this.now() > this.rules.refreshMarginMs) {
        return current;
      }
      try {
        const session = await this.api.refresh();
        this.setSession(session, true);
        return session;
      } catch (error) {
        if (isSessionGone(error)) {
          // Tell the other tabs only when a session ended here, not when there never was one.
          const hadSession = this.snapshot.session !== null;
          this.setSignedOut(hadSession, sessionEndOf(error as ApiError, hadSession));
        } else {
          this.scheduleRetry(error);
        }
        return null;
      }
    };
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? locks.request(REFRESH_LOCK, run) : run();
  }

  private scheduleRetry(error: unknown): void {
    const delay = Math.min(this.rules.backoffStartMs * 2 ** this.failures, this.rules.backoffMaxMs);
    this.failures += 1;
    console.warn(`Session refresh failed; retrying in ${delay} ms`, error);
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.started && this.snapshot.status !== 'signed-out') void this.refresh();
    }, delay);
  }

  private clearRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  // --- ApiAuth -----------------------------------------------------------------------------------

  getAccessToken(): string | null {
    return this.snapshot.session?.accessToken ?? null;
  }

  async renewAccessToken(rejectedToken: string | null): Promise<string | null> {
    const { status, session } = this.snapshot;
    if (status === 'signed-out') return null;
    // A refresh already replaced the token the call was sent with: retry with the new one.
    if (session && session.accessToken !== rejectedToken) return session.accessToken;
    if (status === 'loading' && !this.inflight) return null;
    return (await this.refresh())?.accessToken ?? null;
  }

  // --- sign in, sign up, sign out ----------------------------------------------------------------

  /**
   * Signs in with email and password. With two-factor on, nothing changes yet: the outcome is a
   * challenge to finish with `signInWithCode`. Rejects with an `ApiError` whose message is for the user.
   */
  async signIn(input: SignInInput): Promise<SignInOutcome> {
    const outcome = await this.api.signIn(input);
    if (outcome.kind === 'session') this.setSession(outcome.session, true);
    return outcome;
  }

  /** The second step of a two-factor sign-in: the challenge's token and a code (or a recovery code). */
  async signInWithCode(input: SecondFactorInput): Promise<Session> {
    const session = await this.api.signInWithCode(input);
    this.setSession(session, true);
    return session;
  }

  /**
   * Creates an account and signs in; an address that has an account already signs nobody in (the
   * outcome is `check-email`). Rejects with an `ApiError` whose message is for the user.
   */
  async signUp(input: SignUpInput): Promise<SignUpOutcome> {
    const outcome = await this.api.signUp(input);
    if (outcome.kind === 'session') this.setSession(outcome.session, true);
    return outcome;
  }

  /**
   * Ends the session on the server, then here and in the other tabs. A session the server no
   * longer knows counts as ended; any other failure rejects and leaves the user signed in (the
   * refresh cookie would otherwise sign them straight back in on the next visit).
   */
  async signOut(): Promise<void> {
    try {
      await this.api.signOut();
    } catch (error) {
      if (!isSessionGone(error)) throw error;
    }
    this.setSignedOut(true);
  }

  /**
   * The server has already ended the session (the account was deleted): forget it here and in
   * the other tabs, without a sign-out request the server could only refuse.
   */
  sessionEnded(): void {
    this.setSignedOut(true);
  }

  // --- other tabs --------------------------------------------------------------------------------

  private post(message: TabMessage): void {
    this.channel?.postMessage(message);
  }

  private receive(message: TabMessage): void {
    if (message.type === 'session') this.setSession(message.session, false);
    else if (message.type === 'signed-out') this.setSignedOut(false, message.ended);
  }
}

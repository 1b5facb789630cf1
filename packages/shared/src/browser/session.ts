import type { ProfileResponseDto } from '@fitting-room/api-client';

/** The signed-in person, as the API describes them in a session. */
export type AuthUser = ProfileResponseDto;

/** A session as the app keeps it: in memory only, never in storage. */
export interface Session {
  accessToken: string;
  /** When the access token expires, in milliseconds on this browser's clock. */
  expiresAt: number;
  user: AuthUser;
}

export interface SignInInput {
  email: string;
  password: string;
}

/** The second step of a sign-in with two-factor on: the challenge and a code of the app, or a recovery code. */
export interface SecondFactorInput {
  mfa_token: string;
  code?: string;
  recovery_code?: string;
}

/**
 * What a password sign-in answers: a session, or (two-factor on) a challenge whose token goes
 * with a code to `signInWithCode`.
 */
export type SignInOutcome = { kind: 'session'; session: Session } | { kind: 'mfa'; mfaToken: string };

/**
 * What a sign-up answers: a new address gets its account and a session; an address that has an
 * account already gets no session (`check-email`: the mail says how to sign in). Both carry the
 * same words ("We've sent a link to <address>...").
 */
export type SignUpOutcome = { kind: 'session'; session: Session; message: string } | { kind: 'check-email'; message: string };

export interface SignUpInput {
  full_name: string;
  email: string;
  password: string;
  age_confirmed: true;
}

/** The session endpoints, as the session store needs them. Failures reject with an `ApiError`. */
export interface SessionApi {
  signIn(input: SignInInput): Promise<SignInOutcome>;
  signInWithCode(input: SecondFactorInput): Promise<Session>;
  signUp(input: SignUpInput): Promise<SignUpOutcome>;
  refresh(): Promise<Session>;
  signOut(): Promise<void>;
}

import { paths } from '../../app/paths';
import { ResetPasswordPage } from './ResetPasswordPage';
import { UnsubscribePage } from './UnsubscribePage';
import { VerifyEmailPage } from './VerifyEmailPage';
import type { ComponentType } from 'react';

/** The pages mailed links open, by path: one lazy chunk for the three (the router imports it once). */
export const emailLinkPages: Record<EmailLinkPath, ComponentType> = {
  [paths.verifyEmail]: VerifyEmailPage,
  [paths.resetPassword]: ResetPasswordPage,
  [paths.unsubscribe]: UnsubscribePage,
};

export type EmailLinkPath = typeof paths.verifyEmail | typeof paths.resetPassword | typeof paths.unsubscribe;

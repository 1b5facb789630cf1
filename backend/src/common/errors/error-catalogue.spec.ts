import {
  API_ERROR_CODES,
  AuthErrorCode,
  DeveloperErrorCode,
  ErrorCode,
  FaceErrorCode,
  isApiErrorCode,
  SafetyErrorCode,
} from './error-catalogue';

describe('the error catalogue', () => {
  it('lists every code once: the general ones, then those of the features', () => {
    expect(API_ERROR_CODES).toEqual([
      ...Object.values(ErrorCode),
      ...Object.values(AuthErrorCode),
      ...Object.values(SafetyErrorCode),
      ...Object.values(DeveloperErrorCode),
      ...Object.values(FaceErrorCode),
    ]);
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
  });

  it('knows its codes and nothing else', () => {
    expect(isApiErrorCode('INVALID_CREDENTIALS')).toBe(true);
    expect(isApiErrorCode('CUSTOM_POSE_PAUSED')).toBe(true);
    expect(isApiErrorCode('invalid_credentials')).toBe(false);
    expect(isApiErrorCode(undefined)).toBe(false);
  });
});

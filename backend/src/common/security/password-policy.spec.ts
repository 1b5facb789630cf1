import { commonPasswordCount, isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy';

describe('the common-password list', () => {
  it('ships thousands of passwords of the allowed lengths', () => {
    expect(commonPasswordCount()).toBeGreaterThan(3000);
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
  });

  it.each(['password', 'PASSWORD', 'password1', '12345678', 'qwertyuiop', 'iloveyou', 'sunshine', 'Football', ' baseball '])(
    'refuses %p',
    (pw) => {
      expect(isCommonPassword(pw)).toBe(true);
    },
  );

  it.each(['violet-harbour-lantern-42', 'Tq7#vLp2', 'correct horse battery staple'])('accepts %p', (pw) => {
    expect(isCommonPassword(pw)).toBe(false);
  });
});

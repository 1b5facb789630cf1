import { describe, expect, it } from 'vitest';
import { FILL_ALL_FIELDS, INVALID_AMOUNT, successMessage, validateAdjustment } from './AdjustCreditsForm';

describe('the credit adjustment form, before it sends anything', () => {
  it('asks for every field: mode, amount and reason (blank counts as empty)', () => {
    expect(validateAdjustment('', '5', 'goodwill')).toBe(FILL_ALL_FIELDS);
    expect(validateAdjustment('add', '', 'goodwill')).toBe(FILL_ALL_FIELDS);
    expect(validateAdjustment('add', '5', '   ')).toBe(FILL_ALL_FIELDS);
    expect(validateAdjustment('add', '  ', 'goodwill')).toBe(FILL_ALL_FIELDS);
  });

  it('takes only a whole number above zero', () => {
    for (const amount of ['0', '-3', '2.5', '1e3', 'abc', '10 credits', '+4', '0x10']) {
      expect(validateAdjustment('add', amount, 'goodwill'), amount).toBe(INVALID_AMOUNT);
    }
  });

  it('a missing field is reported before a wrong amount', () => {
    expect(validateAdjustment('deduct', 'abc', '')).toBe(FILL_ALL_FIELDS);
  });

  it('lets a valid adjustment through, spaces around the amount included', () => {
    expect(validateAdjustment('add', '25', 'refund')).toBeNull();
    expect(validateAdjustment('deduct', ' 7 ', 'abuse')).toBeNull();
  });

  it('says what was done, in the words of the product', () => {
    expect(successMessage('add', 5)).toBe('Successfully added 5 credits');
    expect(successMessage('deduct', 12)).toBe('Successfully deducted 12 credits');
    expect(successMessage('add', 1)).toBe('Successfully added 1 credit');
  });
});

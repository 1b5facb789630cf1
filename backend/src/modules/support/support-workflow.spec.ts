import { INQUIRY_STATUSES, type InquiryStatus } from './support.entities';
import { slaOf, statusMoveError } from './support.service';

describe('the support workflow', () => {
  const allowed = new Set(['open>in_progress', 'in_progress>resolved', 'resolved>closed', 'resolved>in_progress']);

  it.each(
    INQUIRY_STATUSES.flatMap((from) =>
      INQUIRY_STATUSES.filter((to) => to !== from).map((to) => [from, to] as [InquiryStatus, InquiryStatus]),
    ),
  )('from %s to %s', (from, to) => {
    const error = statusMoveError(from, to);
    if (allowed.has(`${from}>${to}`)) expect(error).toBeNull();
    else expect(error).toMatch(new RegExp(`^Cannot move a ticket from ${from} to ${to}: `));
  });

  it('staying in place is not a move', () => {
    for (const status of INQUIRY_STATUSES) expect(statusMoveError(status, status)).toBeNull();
  });
});

describe('the age of a ticket against the 24-48 h promise', () => {
  it.each([
    ['open', 0, 'ok'],
    ['open', 23.99, 'ok'],
    ['open', 24, 'due_soon'],
    ['in_progress', 48, 'due_soon'],
    ['in_progress', 48.01, 'overdue'],
    ['open', 500, 'overdue'],
    ['resolved', 500, null],
    ['closed', 1, null],
  ] as const)('%s after %s h: %s', (status, hours, sla) => {
    expect(slaOf(status, hours)).toBe(sla);
  });
});

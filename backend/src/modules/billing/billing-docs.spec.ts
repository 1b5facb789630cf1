import * as fs from 'node:fs';
import * as path from 'node:path';
import { HANDLED_STRIPE_EVENTS } from './billing.service';
import { STRIPE_API_VERSION } from './stripe.client';

/** What a person connecting Stripe reads must name what the code does: the events to enable and the API version. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('the Stripe set-up the docs describe', () => {
  const payments = read('docs/payments.md');
  const steps = payments.slice(payments.indexOf('## Connecting a Stripe account'), payments.indexOf('## The API version'));
  const webhooks = payments.slice(
    payments.indexOf('## Webhooks are the source of truth'),
    payments.indexOf('### When an event fails for good'),
  );

  it("lists every event the webhook applies among the endpoint's events, and says what each does", () => {
    expect(HANDLED_STRIPE_EVENTS.filter((e) => !steps.includes(`\`${e}\``))).toEqual([]);
    expect(HANDLED_STRIPE_EVENTS.filter((e) => !webhooks.includes(`\`${e}\``))).toEqual([]);
  });

  it('names the pinned API version in docs/payments.md and README.md', () => {
    expect(steps).toContain(`\`${STRIPE_API_VERSION}\``);
    expect(read('README.md')).toContain(`\`${STRIPE_API_VERSION}\``);
  });
});

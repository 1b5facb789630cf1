import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** A violation as a line a person can act on: rule, impact, and where. */
export interface Finding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core (through @axe-core/playwright, which drives playwright-core's Page) on the page as it is:
 * WCAG 2.0-2.2 A and AA and axe's best practices, every impact. A frame sandboxed without scripts
 * (the console shows a mail's HTML in one) is left out: axe cannot run there and would wait for ever.
 */
export async function axeFindings(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .exclude('iframe[sandbox]')
    // only violations are read: axe then keeps no nodes of passed or inapplicable rules (its own speed-up)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? '',
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}

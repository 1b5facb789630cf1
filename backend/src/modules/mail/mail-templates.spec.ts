import { BRAND_COLOURS, BRAND_SCALE } from '@fitting-room/shared/brand';
import { MailTemplates, renderMail, type MailBrand } from './mail-templates';

const brand: MailBrand = { appName: 'Fitting Room', appUrl: 'https://fitting.example', supportEmail: 'help@fitting.example' };

describe("the mail's colours", () => {
  const { html } = renderMail(
    brand,
    MailTemplates.generationFinished(brand, {
      name: 'Ada',
      type: 'image',
      completed: true,
      url: 'https://fitting.example/dashboard/generations',
      settingsUrl: 'https://fitting.example/dashboard/settings',
    }),
    { unsubscribeUrl: 'https://fitting.example/api/mail/unsubscribe?token=t' },
  );

  it("are the user app's: the button is the app's solid brand colour with white text, the name its brand text colour", () => {
    expect(html).toContain(`background:${BRAND_COLOURS.solid};color:#ffffff`);
    expect(html).toContain(`font-weight:600;color:${BRAND_COLOURS.fg}">Fitting Room</p>`);
    expect(BRAND_COLOURS.solid).toBe(BRAND_SCALE[600]); // the app's brand.solid (frontend/src/theme/system.ts)
  });

  it('use no colour of their own: every colour in the HTML is one of the shared brand colours', () => {
    const used = new Set(html.match(/#[0-9a-f]{6}\b/gi)?.map((c) => c.toLowerCase()));
    expect(used.size).toBeGreaterThan(3);
    const known = new Set(Object.values(BRAND_COLOURS).map((c) => c.toLowerCase()));
    expect([...used].filter((c) => !known.has(c))).toEqual([]);
  });
});

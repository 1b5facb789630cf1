import { paths } from '../../app/paths';
import { APP_NAME } from '../../config/app-config';
import { Bullets, LegalContacts, LegalPage, LegalSection, P, PageLink } from './LegalPage';

/** Refund Policy (route /refund): the payment claims of docs/product.md. */
export function RefundPage() {
  return (
    <LegalPage
      title="Refund Policy"
      summary={
        <>
          How payments, cancellations and refunds work at {APP_NAME}. Because you can try the service on the Free plan before paying, all
          purchases are final, with the exceptions below.
        </>
      }
    >
      <LegalSection title="1. All purchases are final">
        <P>
          Subscriptions and credit packs are final and non-refundable once purchased, including unused credits and partial billing periods.
          Before you pay, the Free plan lets you try {APP_NAME} at no cost: its results are whole pictures with a visible watermark across
          them (they are not blurred), so you can judge the quality first.
        </P>
      </LegalSection>

      <LegalSection title="2. Billing errors">
        <P>
          If you were charged by mistake (for example twice, or the wrong amount), tell us within 7 days of the charge and we will correct
          it, including a refund of the amount charged in error. Errors reported later than 7 days after the charge cannot be corrected.
        </P>
      </LegalSection>

      <LegalSection title="3. Failed generations and outages">
        <Bullets
          items={[
            'Credits are held when a generation starts and only taken when the result is delivered. If a generation fails or you cancel it, the held credits return to your balance automatically.',
            'If the service is unavailable for more than 48 hours in a row, we may compensate affected subscribers with credits.',
          ]}
        />
      </LegalSection>

      <LegalSection title="4. Credits and cancelling">
        <Bullets
          items={[
            'Subscription credits reset monthly: unused subscription credits do not roll over to the next month.',
            'Purchased credit packs never expire.',
            'You can cancel at any time. Cancelling keeps your access until the end of the current billing period; there are no partial refunds for the rest of that period.',
            'We notify you of price changes at least 30 days in advance, so you can cancel before a new price applies.',
          ]}
        />
      </LegalSection>

      <LegalSection title="5. Customers in the European Union and the United Kingdom">
        <P>
          You normally have 14 days to withdraw from an online purchase. Our service is digital and delivered at once: when you buy a plan
          or credits and start using them (for example by generating a try-on), you ask us to begin immediately and acknowledge that you
          lose the 14-day right of withdrawal once the service has been used.
        </P>
      </LegalSection>

      <LegalSection title="6. Your rights under the law">
        <P>
          This policy is governed by the laws of Australia. Nothing in it limits rights you have under the Australian Consumer Law or other
          consumer laws that cannot be excluded. See also our <PageLink to={paths.terms}>Terms of Service</PageLink>.
        </P>
      </LegalSection>

      <LegalContacts />
    </LegalPage>
  );
}

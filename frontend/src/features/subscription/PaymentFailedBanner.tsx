import { Alert, Button, Stack } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { meQueryOptions } from '../profile/profile-queries';
import { useBillingPortal } from './billing-actions';

export const PAYMENT_FAILED_TITLE = 'Your last payment did not go through';

/**
 * Above every dashboard screen while Stripe is retrying a failed payment of the plan (GET /api/me
 * `billing.payment_failed`): the plan and credits stay meanwhile, and the button opens Stripe's
 * billing portal to update the payment method.
 */
export function PaymentFailedBanner() {
  const { data: me } = useQuery(meQueryOptions);
  const { open, busy } = useBillingPortal();
  const titleId = useId();
  if (!me?.billing?.payment_failed) return null;
  return (
    <Alert.Root status="error" role="region" aria-labelledby={titleId} mb={{ base: '6', md: '8' }} alignItems="flex-start">
      <Alert.Indicator mt="0.5" />
      <Stack gap="3" flex="1" minW="0">
        <Alert.Content>
          <Alert.Title id={titleId} fontWeight="semibold">
            {PAYMENT_FAILED_TITLE}
          </Alert.Title>
          <Alert.Description>
            Your plan and credits stay as they are while we try again over the next days. Update your payment method so that your plan
            continues.
          </Alert.Description>
        </Alert.Content>
        <div>
          <Button size="sm" variant="outline" bg="bg.panel" loading={busy} onClick={open}>
            Update Payment Method
          </Button>
        </div>
      </Stack>
    </Alert.Root>
  );
}

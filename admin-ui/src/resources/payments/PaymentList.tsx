import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Chip, Link, Stack } from '@mui/material';
import { DataTable, DateField, List, SelectInput, TextInput, useRecordContext } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { ResponsiveDataTable } from '../../components/ResponsiveDataTable';
import { formatMoney } from './money';
import type { AdminPaymentRowDto } from '@fitting-room/api-client';

const KIND_LABEL: Record<string, string> = {
  pack: 'Credit pack',
  subscription: 'Subscription',
  refund: 'Refund',
  dispute: 'Dispute',
};

const STATUS_COLOR: Record<string, 'success' | 'error' | 'warning' | 'default'> = {
  paid: 'success',
  failed: 'error',
  refunded: 'warning',
  partially_refunded: 'warning',
  disputed: 'error',
};

const STATUSES = ['paid', 'failed', 'refunded', 'partially_refunded', 'disputed', 'needs_response', 'won', 'lost'];

function Amount(_props: { source?: string }) {
  const record = useRecordContext<AdminPaymentRowDto>();
  if (!record) return null;
  const negative = record.kind === 'refund' || record.kind === 'dispute';
  return <span data-amount={record.id}>{`${negative ? '−' : ''}${formatMoney(record.amount, record.currency)}`}</span>;
}

function Kind(_props: { source?: string }) {
  const record = useRecordContext<AdminPaymentRowDto>();
  return record ? <>{KIND_LABEL[record.kind] ?? record.kind}</> : null;
}

function Status(_props: { source?: string }) {
  const record = useRecordContext<AdminPaymentRowDto>();
  if (!record) return null;
  return <Chip size="small" variant="outlined" label={record.status.replace(/_/g, ' ')} color={STATUS_COLOR[record.status] ?? 'default'} />;
}

/** The object in Stripe's own dashboard (and the subscription of an invoice), in a new tab. */
function StripeLinks(_props: { source?: string }) {
  const record = useRecordContext<AdminPaymentRowDto>();
  if (!record) return null;
  const link = (href: string, text: string) => (
    <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {text}
      <OpenInNewIcon fontSize="inherit" aria-hidden />
    </Link>
  );
  return (
    <Stack spacing={0.5}>
      {record.stripe_url && link(record.stripe_url, record.kind === 'subscription' ? 'Invoice in Stripe' : 'Payment in Stripe')}
      {record.stripe_subscription_url && link(record.stripe_subscription_url, 'Subscription in Stripe')}
    </Stack>
  );
}

const filters = [
  <SelectInput key="kind" source="kind" alwaysOn choices={Object.entries(KIND_LABEL).map(([id, name]) => ({ id, name }))} />,
  <SelectInput key="status" source="status" alwaysOn choices={STATUSES.map((s) => ({ id: s, name: s.replace(/_/g, ' ') }))} />,
  <TextInput key="q" source="q" label="User email" alwaysOn />,
];

/** Money at Stripe (admins only): packs bought, subscription invoices, refunds and disputes, newest first. */
export function PaymentList() {
  return (
    <List
      perPage={50}
      sort={{ field: 'created_at', order: 'DESC' }}
      filters={filters}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
    >
      <ResponsiveDataTable primary="user_email" bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="created_at" label="Date">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="kind" field={Kind} />
        <DataTable.Col source="user_email" label="User" disableSort />
        <DataTable.Col source="product" label="Pack or plan" disableSort />
        <DataTable.Col source="amount" field={Amount} />
        <DataTable.Col source="status" field={Status} />
        <DataTable.Col label="Stripe" field={StripeLinks} disableSort />
      </ResponsiveDataTable>
    </List>
  );
}

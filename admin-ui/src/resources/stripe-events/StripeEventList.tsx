import { replayAdminStripeEvent, type StripeEventRowDto } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import ReplayIcon from '@mui/icons-material/Replay';
import { Button, Chip, Link } from '@mui/material';
import { useState } from 'react';
import { DataTable, DateField, List, SelectInput, TextInput, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { useCan } from '../../auth/role';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { HiddenLabel, ResponsiveDataTable } from '../../components/ResponsiveDataTable';

const STATUSES = ['failed', 'retrying', 'pending', 'applied'] as const;

const STATUS_COLOR: Record<string, 'success' | 'error' | 'warning' | 'default'> = {
  applied: 'success',
  failed: 'error',
  retrying: 'warning',
};

function Status(_props: { source?: string }) {
  const record = useRecordContext<StripeEventRowDto>();
  if (!record) return null;
  return (
    <Chip
      size="small"
      variant={record.status === 'failed' ? 'filled' : 'outlined'}
      label={record.status}
      color={STATUS_COLOR[record.status] ?? 'default'}
    />
  );
}

/** The event's id, linking to the event in Stripe's own dashboard (a new tab). */
function EventLink(_props: { source?: string }) {
  const record = useRecordContext<StripeEventRowDto>();
  if (!record) return null;
  return (
    <Link
      href={record.stripe_url}
      target="_blank"
      rel="noopener noreferrer"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-all' }}
    >
      {record.id}
      <OpenInNewIcon fontSize="inherit" aria-hidden />
    </Link>
  );
}

/**
 * Replay: the API reads the event again from Stripe and applies it (idempotent, audited); the list
 * is read again, and the outcome (or the reason it still fails) is shown.
 */
function ReplayButton() {
  const record = useRecordContext<StripeEventRowDto>();
  const canReplay = useCan('stripe-events', 'edit');
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !canReplay || record.status === 'pending') return null;
  return (
    <Button
      size="small"
      variant={record.status === 'failed' ? 'contained' : 'outlined'}
      startIcon={<ReplayIcon />}
      disabled={busy}
      aria-label={`Replay ${record.type} ${record.id}`}
      onClick={async (event) => {
        event.stopPropagation();
        setBusy(true);
        try {
          const replayed = await unwrap(replayAdminStripeEvent({ path: { id: record.id } }));
          notify(`Replayed ${replayed.type}: ${replayed.status}`, { type: 'success' });
        } catch (error) {
          notify(`Replay failed: ${errorMessage(error)}`, { type: 'error', autoHideDuration: 10_000 });
        } finally {
          setBusy(false);
          refresh();
        }
      }}
    >
      Replay
    </Button>
  );
}

const filters = [
  <SelectInput key="status" source="status" alwaysOn choices={STATUSES.map((s) => ({ id: s, name: s }))} />,
  <TextInput key="type" source="type" label="Event type" alwaysOn />,
  <TextInput key="q" source="q" label="Event id" />,
];

/**
 * Stripe's webhook events as received (admins only), the failed ones first shown: an event that
 * failed on every attempt waits here until its cause is fixed and someone replays it
 * (docs/payments.md "When an event fails for good").
 */
export function StripeEventList() {
  return (
    <List
      perPage={50}
      sort={{ field: 'received_at', order: 'DESC' }}
      filters={filters}
      filterDefaultValues={{ status: 'failed' }}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
      title="Stripe events"
    >
      <ResponsiveDataTable primary="type" bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="received_at" label="Received">
          <DateField source="received_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="type" />
        <DataTable.Col source="id" label="Event" field={EventLink} />
        <DataTable.Col source="status" field={Status} disableSort />
        <DataTable.Col source="error" label="Last error" disableSort render={(r: StripeEventRowDto) => r.error ?? ''} />
        <DataTable.Col source="handled_at" label="Applied">
          <DateField source="handled_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col label={<HiddenLabel>Actions</HiddenLabel>} disableSort>
          <ReplayButton />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  );
}

import DoneIcon from '@mui/icons-material/Done';
import { Button, Chip } from '@mui/material';
import { DataTable, DateField, List, SelectInput, useRecordContext, useUpdate } from 'react-admin';
import { useCan } from '../../auth/role';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { HiddenLabel, ResponsiveDataTable } from '../../components/ResponsiveDataTable';

interface NotificationRecord {
  id: string;
  type: string;
  title: string;
  message: string;
  severity: 'info' | 'warning' | 'critical';
  read: boolean;
  read_by: string | null;
  read_by_email?: string | null;
  read_at: string | null;
  created_at: string;
}

const SEVERITY_COLOR = { info: 'info', warning: 'warning', critical: 'error' } as const;

function SeverityField(_props: { source?: string }) {
  const record = useRecordContext<NotificationRecord>();
  if (!record) return null;
  return (
    <Chip
      size="small"
      label={record.severity}
      color={SEVERITY_COLOR[record.severity] ?? 'default'}
      variant={record.severity === 'critical' ? 'filled' : 'outlined'}
    />
  );
}

/** Mark Read: unread becomes read (read_by, read_at set by the API); there is no way back. */
function MarkReadButton() {
  const record = useRecordContext<NotificationRecord>();
  const canEdit = useCan('notifications', 'edit');
  const [update, { isPending }] = useUpdate<NotificationRecord>();
  if (!record || record.read || !canEdit) return null;
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<DoneIcon />}
      disabled={isPending}
      onClick={(event) => {
        event.stopPropagation();
        update(
          'notifications',
          { id: record.id, data: { read: true }, previousData: record },
          // docs/product.md: mark-read errors are only logged.
          { mutationMode: 'pessimistic', onError: (error) => console.error('Failed to mark the notification read', error) },
        );
      }}
    >
      Mark Read
    </Button>
  );
}

const filters = [
  <SelectInput
    key="read"
    source="read"
    label="Read"
    choices={[
      { id: 'false', name: 'Unread' },
      { id: 'true', name: 'Read' },
    ]}
  />,
  <SelectInput key="severity" source="severity" choices={['info', 'warning', 'critical'].map((s) => ({ id: s, name: s }))} />,
];

/** System notifications, newest first, 50 at a time; critical ones are shown as destructive (red). */
export function NotificationList() {
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
      <ResponsiveDataTable
        primary="title"
        bulkActionButtons={false}
        rowClick={false}
        rowSx={(record: NotificationRecord) =>
          record.severity === 'critical' ? { backgroundColor: 'rgba(211, 47, 47, 0.10)', '& td': { color: 'error.dark' } } : {}
        }
      >
        <DataTable.Col source="severity" field={SeverityField} />
        <DataTable.Col source="title" />
        <DataTable.Col source="message" disableSort />
        <DataTable.Col source="type" />
        <DataTable.Col source="read" render={(record: NotificationRecord) => (record.read ? 'Read' : 'Unread')} />
        <DataTable.Col
          source="read_by"
          label="Read by"
          disableSort
          render={(r: NotificationRecord) => r.read_by_email ?? r.read_by ?? ''}
        />
        <DataTable.Col source="read_at" label="Read at">
          <DateField source="read_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Created">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col label={<HiddenLabel>Actions</HiddenLabel>} disableSort>
          <MarkReadButton />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  );
}

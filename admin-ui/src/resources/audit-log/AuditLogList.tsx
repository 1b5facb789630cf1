import { Box } from '@mui/material';
import { DataTable, DateField, List, TextInput } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { ResponsiveDataTable } from '../../components/ResponsiveDataTable';

interface AuditRecord {
  id: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  target_user_id: string | null;
  target_email: string | null;
  before: unknown;
  after: unknown;
  created_at: string;
}

/** A before/after object as one "key: value" line per field. */
function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  const entries = typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [['', value] as const];
  return (
    <Box component="dl" sx={{ m: 0, fontSize: 12, fontFamily: 'monospace' }}>
      {entries.map(([key, v]) => (
        <Box key={key} sx={{ wordBreak: 'break-word' }}>
          {key && (
            <Box component="dt" sx={{ display: 'inline', color: 'text.secondary' }}>
              {key}:{' '}
            </Box>
          )}
          <Box component="dd" sx={{ display: 'inline', m: 0 }}>
            {typeof v === 'string' ? v : JSON.stringify(v)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

const filters = [
  <TextInput key="action" source="action" alwaysOn />,
  <TextInput key="target_user_id" source="target_user_id" label="Target user id" />,
];

/** Who did what to whom, with the before and after, and when (admin only). */
export function AuditLogList() {
  return (
    <List
      perPage={50}
      sort={{ field: 'created_at', order: 'DESC' }}
      filters={filters}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
      title="Audit log"
    >
      <ResponsiveDataTable primary="action" bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="created_at" label="When">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="actor_email" label="Who" disableSort />
        <DataTable.Col source="action" label="What" />
        <DataTable.Col label="Whom" disableSort render={(r: AuditRecord) => r.target_email ?? `${r.target_type} ${r.target_id}`} />
        <DataTable.Col label="Before" disableSort render={(r: AuditRecord) => <Json value={r.before} />} />
        <DataTable.Col label="After" disableSort render={(r: AuditRecord) => <Json value={r.after} />} />
      </ResponsiveDataTable>
    </List>
  );
}

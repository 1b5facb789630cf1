import { Alert } from '@mui/material';
import { DataTable, DateField, List } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { ResponsiveDataTable } from '../../components/ResponsiveDataTable';

/** Empty: nothing written yet, or mail goes through an SMTP server (then the outbox stays empty). */
function Empty() {
  return (
    <Alert severity="info" sx={{ my: 2 }}>
      No mail in the outbox. Mail is written here only while no SMTP server is configured (SMTP_HOST).
    </Alert>
  );
}

/** Mail written to $DATA_DIR/mail because no SMTP server is configured, newest first (admin only). */
export function OutboxList() {
  return (
    <List
      perPage={50}
      sort={{ field: 'created_at', order: 'DESC' }}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={<Empty />}
      exporter={false}
      title="Outbox"
    >
      <ResponsiveDataTable primary="subject" bulkActionButtons={false} rowClick="show">
        <DataTable.Col source="created_at" label="Date" disableSort>
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="to" label="To" disableSort />
        <DataTable.Col source="subject" label="Subject" disableSort />
        <DataTable.Col source="template" label="Template" disableSort />
      </ResponsiveDataTable>
    </List>
  );
}

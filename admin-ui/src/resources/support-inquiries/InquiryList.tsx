import { DataTable, DateField, List, SearchInput, SelectInput } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { ResponsiveDataTable } from '../../components/ResponsiveDataTable';
import {
  AgeField,
  KIND_CHOICES,
  KindField,
  PRIORITY_CHOICES,
  PriorityField,
  STATUS_CHOICES,
  StatusField,
  type InquiryRecord,
} from './fields';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search" />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
  <SelectInput key="priority" source="priority" choices={PRIORITY_CHOICES} alwaysOn />,
  <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
];

/** Support tickets, newest first, 50 at a time; open tickets shown as destructive. */
export function InquiryList() {
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
        primary="subject"
        rowClick="show"
        bulkActionButtons={false}
        rowSx={(record: InquiryRecord) => (record.status === 'open' ? { backgroundColor: 'rgba(211, 47, 47, 0.08)' } : {})}
      >
        <DataTable.Col source="number" label="#" render={(r: InquiryRecord) => `#${r.number}`} />
        <DataTable.Col source="status" field={StatusField} />
        <DataTable.Col source="priority" field={PriorityField} />
        <DataTable.Col source="kind" field={KindField} />
        {/* a subject with no space (one long word) wraps instead of widening the table past a phone's screen */}
        <DataTable.Col source="subject" cellSx={() => ({ overflowWrap: 'anywhere', minWidth: 140 })} />
        <DataTable.Col source="name" label="From" render={(r: InquiryRecord) => `${r.name} <${r.email}>`} />
        <DataTable.Col label="Age" field={AgeField} disableSort />
        <DataTable.Col source="created_at" label="Received">
          <DateField source="created_at" showTime />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  );
}

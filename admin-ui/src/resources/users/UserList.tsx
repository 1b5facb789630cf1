import { DataTable, DateField, List, NumberField, Pagination, SearchInput, SelectInput, ShowButton } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { HiddenLabel, ResponsiveDataTable } from '../../components/ResponsiveDataTable';
import { TierField, useTierChoices } from './tiers';

/** The `verified` filter of the API: accounts whose address is proven, or not (sign-ups waiting, squatters). */
const VERIFIED_CHOICES = [
  { id: 'true', name: 'Verified' },
  { id: 'false', name: 'Not verified' },
];

function useUserFilters() {
  const tiers = useTierChoices();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder="Search by email or name" />,
    <SelectInput key="tier" source="tier" label="Tier" choices={tiers} />,
    <SelectInput key="verified" source="verified" label="Address" choices={VERIFIED_CHOICES} />,
  ];
}

/** Users, 100 per page (docs/product.md), searched by the API (case-insensitive, email or full name). */
export function UserList() {
  const filters = useUserFilters();
  return (
    <List
      perPage={100}
      sort={{ field: 'created_at', order: 'DESC' }}
      filters={filters}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    >
      <ResponsiveDataTable primary="email" rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="email" />
        <DataTable.Col
          source="email_verified"
          label="Verified"
          render={(r: { email_verified: boolean }) => (r.email_verified ? 'Yes' : 'No')}
        />
        <DataTable.Col source="full_name" label="Full name" />
        <DataTable.Col source="tier" field={TierField} />
        <DataTable.NumberCol source="credits" />
        <DataTable.Col source="total_generations" label="Generations">
          <NumberField source="total_generations" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Created">
          <DateField source="created_at" />
        </DataTable.Col>
        <DataTable.Col label={<HiddenLabel>Actions</HiddenLabel>}>
          <ShowButton label="View" />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  );
}

import { BooleanField, DataTable, List, Pagination, SearchInput, SelectInput } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { RequiredTierField, ThumbnailField, useCategoryChoices } from '../catalogue/fields';
import { useTierChoices } from '../users/tiers';

/** The catalogue's scenes (poses), disabled ones included: click a row to edit it. */
export function SceneList() {
  const categories = useCategoryChoices();
  const tiers = useTierChoices();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder="Search by name or id" />,
    <SelectInput key="category" source="category" choices={categories} />,
    <SelectInput key="required_tier" source="required_tier" label="Tier" choices={tiers} />,
  ];
  return (
    <List
      perPage={100}
      sort={{ field: 'sort_order', order: 'ASC' }}
      filters={filters}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    >
      <DataTable rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col label="" field={ThumbnailField} disableSort />
        <DataTable.Col source="name" />
        <DataTable.Col source="category" />
        <DataTable.Col source="required_tier" label="Tier" field={RequiredTierField} />
        <DataTable.NumberCol source="credit_cost" label="Credits" />
        <DataTable.Col source="enabled" field={BooleanField} />
        <DataTable.NumberCol source="sort_order" label="Order" />
      </DataTable>
    </List>
  );
}

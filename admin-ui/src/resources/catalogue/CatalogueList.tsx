import { BooleanField, DataTable, List, Pagination, SearchInput, SelectInput } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { HiddenLabel, ResponsiveDataTable } from '../../components/ResponsiveDataTable';
import { useTierChoices } from '../users/tiers';
import { RequiredTierField, ThumbnailField, useCategoryChoices } from './fields';
import type { ReactNode } from 'react';

/** The catalogue's templates or scenes, disabled ones included: click a row to edit it. `children`: the kind's own columns, after the tier. */
export function CatalogueList({ children }: { children?: ReactNode }) {
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
      <ResponsiveDataTable primary="name" rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col label={<HiddenLabel>Picture</HiddenLabel>} field={ThumbnailField} disableSort />
        <DataTable.Col source="name" />
        <DataTable.Col source="category" />
        <DataTable.Col source="required_tier" label="Tier" field={RequiredTierField} />
        {children}
        <DataTable.Col source="enabled" field={BooleanField} />
        <DataTable.NumberCol source="sort_order" label="Order" />
      </ResponsiveDataTable>
    </List>
  );
}

import { DataTable } from 'react-admin';
import { CatalogueList } from '../catalogue/CatalogueList';

/** The catalogue's scenes (poses), disabled ones included, with their price: click a row to edit it. */
export function SceneList() {
  return (
    <CatalogueList>
      <DataTable.NumberCol source="credit_cost" label="Credits" />
    </CatalogueList>
  );
}

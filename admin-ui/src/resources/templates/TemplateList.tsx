import { CatalogueList } from '../catalogue/CatalogueList';

/** The catalogue's templates, disabled ones included: click a row to edit it. */
export function TemplateList() {
  return <CatalogueList />;
}

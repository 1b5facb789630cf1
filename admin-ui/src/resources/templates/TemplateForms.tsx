import { Create, required, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { CatalogueEdit, CatalogueFields } from '../catalogue/CatalogueForms';
import { TemplateThumbnailInput, useCategoryChoices } from '../catalogue/fields';

function TemplateFields() {
  return (
    <CatalogueFields promptHelp="Goes into the AI prompt after “show the woman”">
      <TextInput
        source="shop_url"
        label="Shop link (https)"
        fullWidth
        helperText="“Shop this look” on results; empty: the Search button says Coming Soon"
      />
    </CatalogueFields>
  );
}

/** Edit a template: every field, its thumbnail, and the garment photo AI vendors receive. */
export function TemplateEdit() {
  return (
    <CatalogueEdit resource="templates" photoLabel="Garment photo">
      <TemplateFields />
      <TemplateThumbnailInput />
    </CatalogueEdit>
  );
}

/** Add a template: its thumbnail is drawn like its category's first template; the photo comes after saving. */
export function TemplateCreate() {
  const categories = useCategoryChoices();
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ enabled: true }}>
        <TextInput source="id" validate={required()} helperText="lowercase words joined by hyphens, e.g. bikini-lilac" />
        <SelectInput source="category" choices={categories} validate={required()} />
        <TemplateFields />
      </SimpleForm>
    </Create>
  );
}

import { Create, NumberInput, required, SimpleForm, TextInput } from 'react-admin';
import { CatalogueEdit, CatalogueFields } from '../catalogue/CatalogueForms';

function SceneFields() {
  return (
    <CatalogueFields promptHelp="Goes into the AI prompt after the outfit">
      <NumberInput
        source="credit_cost"
        label="Credits (image)"
        step={1}
        min={1}
        validate={required()}
        helperText="A video adds the catalogue's video surcharge"
      />
    </CatalogueFields>
  );
}

/** Edit a scene: every field, and its reference photo. */
export function SceneEdit() {
  return (
    <CatalogueEdit resource="scenes" photoLabel="Reference photo" noCategory="every category">
      <SceneFields />
    </CatalogueEdit>
  );
}

/** Add a scene: an id starting with a category's prefix (bikini-, activewear-...) puts it in that category. */
export function SceneCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ enabled: true, credit_cost: 1 }}>
        <TextInput
          source="id"
          validate={required()}
          helperText="e.g. bikini-sunset-pier (category prefix) or sunset-pier (every category)"
        />
        <SceneFields />
      </SimpleForm>
    </Create>
  );
}

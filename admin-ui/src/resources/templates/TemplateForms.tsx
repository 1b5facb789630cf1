import { Box } from '@mui/material';
import {
  BooleanInput,
  Create,
  Edit,
  NumberInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
} from 'react-admin';
import { CatalogPhotoInput, TemplateThumbnailInput, useCategoryChoices } from '../catalogue/fields';
import { useTierChoices } from '../users/tiers';

/** Catalogue items are disabled, never deleted: no Delete button. */
const SAVE_ONLY = (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);
function TemplateFields() {
  const tiers = useTierChoices();
  return (
    <>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput
        source="prompt_description"
        label="Prompt text"
        multiline
        fullWidth
        validate={required()}
        helperText="Goes into the AI prompt after “show the woman”"
      />
      <SelectInput source="required_tier" label="Tier" choices={tiers} validate={required()} />
      <NumberInput source="sort_order" label="Order" step={1} />
      <BooleanInput source="enabled" />
      <TextInput
        source="shop_url"
        label="Shop link (https)"
        fullWidth
        helperText="“Shop this look” on results; empty: the Search button says Coming Soon"
      />
    </>
  );
}

/** Edit a template: every field, and the garment photo AI vendors receive. */
export function TemplateEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false}>
      <SimpleForm toolbar={SAVE_ONLY}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'baseline' }}>
          <TextField source="id" />
          <TextField source="category" />
        </Box>
        <TemplateFields />
        <TemplateThumbnailInput />
        <CatalogPhotoInput resource="templates" label="Garment photo" />
      </SimpleForm>
    </Edit>
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

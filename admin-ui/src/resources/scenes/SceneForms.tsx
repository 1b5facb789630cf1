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
import { CatalogPhotoInput } from '../catalogue/fields';
import { useTierChoices } from '../users/tiers';

/** Catalogue items are disabled, never deleted: no Delete button. */
const SAVE_ONLY = (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);
function SceneFields() {
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
        helperText="Goes into the AI prompt after the outfit"
      />
      <SelectInput source="required_tier" label="Tier" choices={tiers} validate={required()} />
      <NumberInput
        source="credit_cost"
        label="Credits (image)"
        step={1}
        min={1}
        validate={required()}
        helperText="A video adds the catalogue's video surcharge"
      />
      <NumberInput source="sort_order" label="Order" step={1} />
      <BooleanInput source="enabled" />
    </>
  );
}

/** Edit a scene: every field, and its reference photo. */
export function SceneEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false}>
      <SimpleForm toolbar={SAVE_ONLY}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'baseline' }}>
          <TextField source="id" />
          <TextField source="category" emptyText="every category" />
        </Box>
        <SceneFields />
        <CatalogPhotoInput resource="scenes" label="Reference photo" />
      </SimpleForm>
    </Edit>
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

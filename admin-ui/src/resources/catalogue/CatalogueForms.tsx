import { Box } from '@mui/material';
import { BooleanInput, Edit, NumberInput, required, SaveButton, SelectInput, SimpleForm, TextField, TextInput, Toolbar } from 'react-admin';
import { useTierChoices } from '../users/tiers';
import { CatalogPhotoInput } from './fields';
import type { ReactNode } from 'react';

/** Catalogue items are disabled, never deleted: no Delete button. */
const SAVE_ONLY = (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/**
 * The fields templates and scenes share. `promptHelp` says where the prompt text goes; `children`
 * are the kind's own fields, after the tier.
 */
export function CatalogueFields({ promptHelp, children }: { promptHelp: string; children?: ReactNode }) {
  const tiers = useTierChoices();
  return (
    <>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput source="prompt_description" label="Prompt text" multiline fullWidth validate={required()} helperText={promptHelp} />
      <SelectInput source="required_tier" label="Tier" choices={tiers} validate={required()} />
      {children}
      <NumberInput source="sort_order" label="Order" step={1} />
      <BooleanInput source="enabled" />
    </>
  );
}

interface CatalogueEditProps {
  resource: 'templates' | 'scenes';
  /** What the item's photo is to the AI vendors ("Garment photo", "Reference photo"). */
  photoLabel: string;
  /** How an item of no category reads (scenes of every category). */
  noCategory?: string;
  /** The form's fields (and any input of the kind's own), above the photo. */
  children: ReactNode;
}

/** Edit a template or scene: its id and category (fixed), its fields, then its photo. */
export function CatalogueEdit({ resource, photoLabel, noCategory, children }: CatalogueEditProps) {
  return (
    <Edit mutationMode="pessimistic" redirect={false}>
      <SimpleForm toolbar={SAVE_ONLY}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'baseline' }}>
          <TextField source="id" />
          <TextField source="category" emptyText={noCategory} />
        </Box>
        {children}
        <CatalogPhotoInput resource={resource} label={photoLabel} />
      </SimpleForm>
    </Edit>
  );
}

import { Box, Chip } from '@mui/material';
import { useState } from 'react';
import { DataTable, DateField, DeleteWithConfirmButton, List, SelectInput, TextInput, useRecordContext } from 'react-admin';
import { BANNER_ONLY, ListErrorBanner } from '../../components/Banners';
import { HiddenLabel, ResponsiveDataTable } from '../../components/ResponsiveDataTable';

interface GenerationRecord {
  id: string;
  user_id: string;
  user_email: string;
  type: string;
  status: string;
  category: string | null;
  cost: number;
  failure_reason: string | null;
  stage: string | null;
  created_at: string;
  completed_at: string | null;
  thumbnail_url: string | null;
}

const THUMB = { width: 48, height: 64, borderRadius: 1 } as const;

/** The result's picture; an empty tile when there is none (failed, running) or it cannot load (file removed). */
function Thumbnail(_props: { source?: string }) {
  const record = useRecordContext<GenerationRecord>();
  const [broken, setBroken] = useState(false);
  if (!record?.thumbnail_url || broken) {
    return (
      <Box
        sx={{ ...THUMB, bgcolor: 'action.hover' }}
        role="img"
        aria-label={record?.thumbnail_url ? 'Picture unavailable' : 'No picture'}
      />
    );
  }
  return (
    <Box
      component="img"
      src={record.thumbnail_url}
      alt=""
      loading="lazy"
      onError={() => setBroken(true)}
      sx={{ ...THUMB, objectFit: 'cover' }}
    />
  );
}

const STATUS_COLOR: Record<string, 'success' | 'error' | 'warning' | 'default'> = {
  completed: 'success',
  failed: 'error',
  processing: 'warning',
};

function StatusChip(_props: { source?: string }) {
  const record = useRecordContext<GenerationRecord>();
  if (!record) return null;
  return <Chip size="small" label={record.status} color={STATUS_COLOR[record.status] ?? 'default'} variant="outlined" />;
}

const filters = [
  <SelectInput key="status" source="status" alwaysOn choices={['processing', 'completed', 'failed'].map((s) => ({ id: s, name: s }))} />,
  <SelectInput key="type" source="type" choices={['image', 'video'].map((s) => ({ id: s, name: s }))} />,
  <TextInput key="user_id" source="user_id" label="User id" />,
];

/** Recent generations of every user (admin): status, failure reasons, and removal (files included). */
export function GenerationList() {
  return (
    <List
      perPage={50}
      sort={{ field: 'created_at', order: 'DESC' }}
      filters={filters}
      error={<ListErrorBanner />}
      queryOptions={BANNER_ONLY}
      empty={false}
      exporter={false}
    >
      <ResponsiveDataTable primary="user_email" bulkActionButtons={false} rowClick="show">
        <DataTable.Col label={<HiddenLabel>Result</HiddenLabel>} field={Thumbnail} disableSort />
        <DataTable.Col source="user_email" label="User" />
        <DataTable.Col source="type" />
        <DataTable.Col source="category" />
        <DataTable.Col source="status" field={StatusChip} />
        <DataTable.Col source="failure_reason" label="Failure reason" disableSort />
        <DataTable.Col source="cost" />
        <DataTable.Col source="created_at" label="Created">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col label={<HiddenLabel>Actions</HiddenLabel>} disableSort>
          <DeleteWithConfirmButton
            label="Remove"
            mutationMode="pessimistic"
            redirect={false}
            confirmTitle="Remove this generation?"
            confirmContent="The generation and its files are deleted for good."
          />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  );
}

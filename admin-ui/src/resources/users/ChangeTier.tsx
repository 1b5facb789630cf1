import { Button, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useNotify, useUpdate } from 'react-admin';
import { useTierChoices } from './tiers';
import type { AdminUserDetailsDto as AdminUserDetails } from '@fitting-room/api-client';

/** Admin only (the page hides it otherwise): sets a user's tier (PUT /api/admin/users/:id { tier }). */
export function ChangeTier({ user, onChanged }: { user: AdminUserDetails; onChanged: () => void }) {
  const choices = useTierChoices();
  const [tier, setTier] = useState<string>(user.tier);
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();

  const save = () =>
    update(
      'users',
      { id: user.id, data: { tier }, previousData: user },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`Tier changed to ${choices.find((c) => c.id === tier)?.name ?? tier}`, { type: 'success' });
          onChanged();
        },
        onError: (error) => notify(error instanceof Error ? error.message : 'Failed to change the tier', { type: 'error' }),
      },
    );

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label="Change tier"
        value={choices.length ? tier : ''}
        onChange={(e) => setTier(e.target.value)}
        sx={{ minWidth: 180 }}
      >
        {choices.map((choice) => (
          <MenuItem key={choice.id} value={choice.id}>
            {choice.name}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="outlined" disabled={tier === user.tier || isPending} onClick={save} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
        Save tier
      </Button>
    </Stack>
  );
}
